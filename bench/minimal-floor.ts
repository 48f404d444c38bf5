import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The minimal floor of the bench's load part (bench/floor-ratios.ts): a bare node:http server that answers a ticket
 * deduction with one conditional UpdateItem of the balance and a score report with one UpdateItem of the score
 * item, on a DynamoDB Local of its own (MINIMAL_ENDPOINT, table MINIMAL_TABLE, made with a stream as the service's
 * is). No token, no validation, no ledger, no idempotency, no account state: the least a server storing the value
 * could do, so that the service's ratio to it says what its guarantees cost. Routes: `POST /deduct` (minus_tickets'
 * body), `POST /report` (addWin's body). Prints its port as one JSON line and stops when its standard input closes.
 */
const table = process.env.MINIMAL_TABLE ?? '';
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: process.env.MINIMAL_ENDPOINT, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
);

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

const answer = (statusCode: number, body: unknown) => ({ statusCode, body: JSON.stringify(body) });

async function deduct(body: Record<string, unknown>) {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `USER#${String(body.userId)}`, sk: `TICKETS#${String(body.projectName)}#${String(body.level)}` },
        UpdateExpression: 'SET balance = balance - :amount',
        ConditionExpression: 'balance >= :amount',
        ExpressionAttributeValues: { ':amount': body.amount },
      }),
    );
    return answer(201, { data: 'deducted' });
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return answer(409, { message: 'short' });
    throw error;
  }
}

async function report(body: Record<string, unknown>) {
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: `SCORE#${String(body.game_code)}`, sk: `PLAYER#${String(body.game_player_id)}` },
      UpdateExpression: 'ADD kills :kills, wins :wins',
      ExpressionAttributeValues: { ':kills': body.kills, ':wins': body.wins },
    }),
  );
  return answer(200, { code: 200 });
}

const routes: Record<string, (body: Record<string, unknown>) => Promise<{ statusCode: number; body: string }>> = { '/deduct': deduct, '/report': report };

const server = createServer((request, response) => {
  const route = routes[new URL(request.url ?? '/', 'http://floor').pathname];
  void (async () => (route && request.method === 'POST' ? route(await bodyOf(request)) : answer(404, { message: 'no route' })))()
    .catch((error: unknown) => answer(500, { message: String(error) }))
    .then((result) => response.writeHead(result.statusCode, { 'content-type': 'application/json' }).end(result.body));
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
process.stdin.resume();
process.stdin.on('end', () => {
  server.close();
  process.exit(0);
});
