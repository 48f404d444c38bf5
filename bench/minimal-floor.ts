import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { goneKey } from '../core/platform/players.js';

/**
 * The minimal floor of the bench's load part (bench/floor-ratios.ts): a bare node:http server that answers a ticket
 * deduction with one conditional UpdateItem of the balance and a score report with one UpdateItem of the score
 * item, on a DynamoDB Local of its own (MINIMAL_ENDPOINT, table MINIMAL_TABLE, made with a stream as the service's
 * is). No token, no validation, no ledger, no idempotency, no account state: the least a server storing the value
 * could do, so that the service's ratio to it says what its guarantees cost. Routes: `POST /deduct` (minus_tickets'
 * body), `POST /report` (addWin's body). Prints its port as one JSON line and stops when its standard input closes.
 *
 * Beside them, each minimal call with one item more, or inside a transaction (bench/emulator-items.ts): what each
 * costs DynamoDB Local, whether the request waits for it or not. `POST /deduct-read`: the player's gone mark read
 * first (as the service's deduction reads it). `POST /deduct-ledger-later`: a ledger entry put after the answer is
 * sent (as a consumer of the table's stream would write it). `POST /deduct-transaction`: the balance's update alone
 * in a TransactWriteItems; `POST /deduct-ledger-transaction`: the balance and a ledger entry in one (as the
 * service's deduction without an Idempotency-Key writes them). `POST /deduct-as-built`: the gone mark read, then
 * that transaction; `POST /deduct-entry-in-balance`: the gone mark read, then the weighed design (entryInBalance).
 * `POST /report-month-later`: the month's score item updated after the answer; `POST /report-month-parallel`: the
 * week's and the month's updated at once; `POST /report-transaction`: both in one TransactWriteItems (as the
 * service's report writes them).
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

/** The deduction's one write: the balance less the amount, on condition it covers it. */
const balanceUpdate = (body: Record<string, unknown>) => ({
  TableName: table,
  Key: { pk: `USER#${String(body.userId)}`, sk: `TICKETS#${String(body.projectName)}#${String(body.level)}` },
  UpdateExpression: 'SET balance = balance - :amount',
  ConditionExpression: 'balance >= :amount',
  ExpressionAttributeValues: { ':amount': body.amount },
});

/** A deduction's answer once `write` ran: 201, or 409 when the balance's condition refused it (alone or in a transaction). */
async function deducted(write: () => Promise<unknown>) {
  try {
    await write();
    return answer(201, { data: 'deducted' });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') return answer(409, { message: 'short' });
    throw error;
  }
}

const deduct = (body: Record<string, unknown>) => deducted(() => db.send(new UpdateCommand(balanceUpdate(body))));

/** A ledger entry of the deduction, written once (its key is new). */
const ledgerPut = (body: Record<string, unknown>) => {
  const ref = `minus#${randomUUID()}`;
  return { TableName: table, Item: { pk: `USER#${String(body.userId)}`, sk: `LEDGER#${ref}`, ref, change: -Number(body.amount) } };
};

/** The player's gone mark, read as the service's deduction reads it. */
const readGoneMark = (body: Record<string, unknown>) =>
  db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: [goneKey(String(body.userId))], ConsistentRead: true } } }));

/** The balance and its ledger entry in one transaction, as the service's deduction without an Idempotency-Key writes them. */
const deductWithLedger = (body: Record<string, unknown>) =>
  deducted(() =>
    db.send(
      new TransactWriteCommand({
        TransactItems: [{ Update: balanceUpdate(body) }, { Put: { ...ledgerPut(body), ConditionExpression: 'attribute_not_exists(pk)' } }],
      }),
    ),
  );

/** How many entries the balance item holds before they move to a page item of the ledger (entryInBalance). */
const PAGE_ENTRIES = 8;

/**
 * The weighed design of a deduction without a key (docs/performance.md "Under load, beside a server making only the
 * minimal call"): the entry appended to a list in the balance item by the balance's own conditional UpdateItem; the
 * deduction that fills the list moves its PAGE_ENTRIES entries into a page item in a two-item transaction, on
 * condition the list still starts with them (a concurrent move wins, and this one writes nothing).
 */
async function entryInBalance(body: Record<string, unknown>) {
  const update = balanceUpdate(body);
  const ref = `minus#${randomUUID()}`;
  const out = await db.send(
    new UpdateCommand({
      ...update,
      UpdateExpression: `${update.UpdateExpression}, entries = list_append(if_not_exists(entries, :none), :entry)`,
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':none': [], ':entry': [{ ref, change: -Number(body.amount) }] },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const entries = (out.Attributes?.entries ?? []) as { ref: string }[];
  if (entries.length < PAGE_ENTRIES) return;
  const page = entries.slice(0, PAGE_ENTRIES);
  const moved = page.map((_, i) => `entries[${i}]`).join(', ');
  await db
    .send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: { pk: update.Key.pk, sk: `LEDGER#page#${page[0]!.ref}`, entries: page },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table,
              Key: update.Key,
              UpdateExpression: `REMOVE ${moved}`,
              ConditionExpression: 'entries[0].#ref = :first',
              ExpressionAttributeNames: { '#ref': 'ref' },
              ExpressionAttributeValues: { ':first': page[0]!.ref },
            },
          },
        ],
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'TransactionCanceledException') throw error;
    });
}

const scoreUpdate = (body: Record<string, unknown>, season = '') => ({
  TableName: table,
  Key: { pk: `SCORE#${String(body.game_code)}${season}`, sk: `PLAYER#${String(body.game_player_id)}` },
  UpdateExpression: 'ADD kills :kills, wins :wins',
  ExpressionAttributeValues: { ':kills': body.kills, ':wins': body.wins },
});

async function report(body: Record<string, unknown>) {
  await db.send(new UpdateCommand(scoreUpdate(body)));
  return answer(200, { code: 200 });
}

/** Writes sent after the answer: awaited before the process stops, so none is cut off. */
const later = new Set<Promise<unknown>>();
function afterAnswer(write: () => Promise<unknown>) {
  const sent = write().finally(() => later.delete(sent));
  later.add(sent);
}

const variants: Record<string, (body: Record<string, unknown>) => Promise<{ statusCode: number; body: string }>> = {
  '/deduct-read': async (body) => {
    await readGoneMark(body);
    return deduct(body);
  },
  '/deduct-ledger-later': async (body) => {
    const answered = await deduct(body);
    if (answered.statusCode === 201) afterAnswer(() => db.send(new PutCommand(ledgerPut(body))));
    return answered;
  },
  '/deduct-transaction': (body) => deducted(() => db.send(new TransactWriteCommand({ TransactItems: [{ Update: balanceUpdate(body) }] }))),
  '/deduct-ledger-transaction': deductWithLedger,
  '/deduct-as-built': async (body) => {
    await readGoneMark(body);
    return deductWithLedger(body);
  },
  '/deduct-entry-in-balance': async (body) => {
    await readGoneMark(body);
    return deducted(() => entryInBalance(body));
  },
  '/report-month-later': async (body) => {
    const answered = await report(body);
    afterAnswer(() => db.send(new UpdateCommand(scoreUpdate(body, '#month'))));
    return answered;
  },
  '/report-month-parallel': async (body) => {
    await Promise.all([db.send(new UpdateCommand(scoreUpdate(body))), db.send(new UpdateCommand(scoreUpdate(body, '#month')))]);
    return answer(200, { code: 200 });
  },
  '/report-transaction': async (body) => {
    await db.send(new TransactWriteCommand({ TransactItems: [{ Update: scoreUpdate(body) }, { Update: scoreUpdate(body, '#month') }] }));
    return answer(200, { code: 200 });
  },
};

const routes: Record<string, (body: Record<string, unknown>) => Promise<{ statusCode: number; body: string }>> = {
  '/deduct': deduct,
  '/report': report,
  ...variants,
};

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
  void Promise.allSettled(later).then(() => process.exit(0));
});
