import { startDynamoLocal, ensureTable, adminClient } from '../functions/local/dynamo.js';
import { PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const d = await startDynamoLocal();
try {
  const T = 'cc-test';
  await ensureTable(d.endpoint, T, { stream: false });
  const c = adminClient(d.endpoint);
  const show = async (label: string, cmd: any) => { const r: any = await c.send(cmd); console.log(label, JSON.stringify(r.ConsumedCapacity)); return r; };
  await c.send(new PutItemCommand({ TableName: T, Item: { pk: { S: 'U' }, sk: { S: 'T' }, n: { N: '5' } } }));
  await show('tx 1 update + 3 new puts', new TransactWriteItemsCommand({ ReturnConsumedCapacity: 'INDEXES', TransactItems: [
    { Update: { TableName: T, Key: { pk: { S: 'U' }, sk: { S: 'T' } }, UpdateExpression: 'ADD n :n', ExpressionAttributeValues: { ':n': { N: '-1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'U' }, sk: { S: 'L1' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: T, Item: { pk: { S: 'V' }, sk: { S: 'O' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'W' }, sk: { S: 'T' } } } },
  ] }));
  await show('tx 4 new puts', new TransactWriteItemsCommand({ ReturnConsumedCapacity: 'INDEXES', TransactItems: [
    { Put: { TableName: T, Item: { pk: { S: 'a' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'b' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'c' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'd' }, sk: { S: '1' } } } },
  ] }));
  await show('tx 4 new puts again (overwrite)', new TransactWriteItemsCommand({ ReturnConsumedCapacity: 'INDEXES', TransactItems: [
    { Put: { TableName: T, Item: { pk: { S: 'a' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'b' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'c' }, sk: { S: '1' } } } },
    { Put: { TableName: T, Item: { pk: { S: 'd' }, sk: { S: '1' } } } },
  ] }));
} finally { await d.stop(); }
