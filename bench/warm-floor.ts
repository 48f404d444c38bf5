import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { goneKey } from '../core/platform/players.js';
import { VALUE_STATE_MS } from '../core/platform/process-memory.js';
import { monthOf, type Season, seasonKey, weekOf } from '../core/rankings/seasons.js';

/**
 * The warm-cost floor: Lambda handlers that do what an operation cannot avoid (verify the bearer token where
 * the operation needs one, make the same DynamoDB calls, serialise the item) with no framework work: no
 * router, no validation, no envelopes. Bundled like a function and driven with the same API Gateway v2
 * events as the group's handler (bench/warm.ts). Configured from the same SST_RESOURCE_* variables.
 * Item keys are written out here as the domain modules build them (named beside each); a key that drifts
 * makes the floor answer an error status, which stops the bench.
 */
interface Event {
  rawPath: string;
  headers: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
  body?: string;
}

interface Setup {
  db: DynamoDBDocumentClient;
  table: string;
  issuer: string;
  publicKey: CryptoKey;
}

let setup: Promise<Setup> | undefined;
const load = () =>
  (setup ??= (async () => {
    const resource = (name: string) => JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? '{}');
    const { d: _private, ...publicJwk } = JSON.parse(resource('TokenSigningKey').value) as JWK;
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const client = new DynamoDBClient(endpoint ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {});
    return {
      db: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      table: resource('Table').name,
      issuer: `game-platform/${resource('App').stage}`,
      publicKey: (await importJWK(publicJwk, 'ES256')) as CryptoKey,
    };
  })());

const json = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The bearer token's subject, once its signature, issuer, expiry and audience (token kind) check out. */
async function subjectOf(s: Setup, event: Event, audience = 'merchant'): Promise<string> {
  const token = event.headers.authorization?.slice('Bearer '.length) ?? '';
  const { payload } = await jwtVerify(token, s.publicKey, { algorithms: ['ES256'], issuer: s.issuer, audience });
  return String(payload.sub);
}

/** Per merchant account: whether it was suspended, and when that read was sent. */
const stateRead = new Map<string, { suspended: boolean; sentAt: number }>();

/**
 * The merchant's state as a value-moving call uses it (suspension, revocation): the one this process read in the
 * last VALUE_STATE_MS, else read with `also` (the items read fresh beside it) in one BatchGet; `also` alone when the
 * state is remembered, nothing when there is none.
 */
async function suspended(s: Setup, sub: string, also: { pk: string; sk: string }[] = []): Promise<{ suspended: boolean; alsoFound: boolean }> {
  const known = stateRead.get(sub);
  const remembered = known !== undefined && Date.now() - known.sentAt < VALUE_STATE_MS;
  const keys = [
    ...(remembered
      ? []
      : [
          { pk: `MERCHANT#${sub}`, sk: 'MERCHANT' },
          { pk: `REVOKE#${sub}`, sk: 'TOKENS' },
        ]),
    ...also,
  ];
  const sentAt = Date.now();
  const items =
    keys.length === 0
      ? []
      : ((await s.db.send(new BatchGetCommand({ RequestItems: { [s.table]: { Keys: keys, ConsistentRead: true } } }))).Responses?.[s.table] ?? []);
  const found = (key: { pk: string; sk: string }) => items.some((item) => key.pk === item.pk && key.sk === item.sk);
  const state = remembered ? known : { suspended: items.some((item) => item.pk === `MERCHANT#${sub}` && item.status === 2), sentAt };
  stateRead.set(sub, state);
  return { suspended: state.suspended, alsoFound: also.some(found) };
}

const bodyOf = <T>(event: Event) => JSON.parse(event.body ?? '{}') as T;
const sortable = (value: number, width = 12) => String(value).padStart(width, '0');

export const handlers = {
  async get_merchant_info(event: Event) {
    const s = await load();
    const sub = await subjectOf(s, event);
    const out = await s.db.send(new GetCommand({ TableName: s.table, Key: { pk: `MERCHANT#${sub}`, sk: 'MERCHANT' }, ConsistentRead: true }));
    return json(200, { code: 200, data: out.Item });
  },
  async game_detail(event: Event) {
    const s = await load();
    const code = event.queryStringParameters?.code ?? '';
    const out = await s.db.send(new GetCommand({ TableName: s.table, Key: { pk: `GAME#${code}`, sk: 'GAME' } }));
    return json(200, { code: 200, data: out.Item });
  },
  /** The pay group's minus_tickets for a server token, without an Idempotency-Key (core/tickets/held-ledger.ts). */
  async minus_tickets(event: Event) {
    const s = await load();
    const sub = await subjectOf(s, event, 'server');
    const input = bodyOf<{ userId: string; projectName: string; level: number; amount: number }>(event);
    const ref = `minus#${randomUUID()}`;
    const now = new Date().toISOString();
    const { userId: uid, projectName, level, amount } = input;
    // The project's owner is known in a warm process; the player's gone mark is read fresh.
    const state = await suspended(s, sub, [goneKey(uid)]);
    if (state.suspended) return json(403, { statusCode: 403, message: 'merchant is suspended' });
    if (state.alsoFound) return json(404, { statusCode: 404, message: 'this player deleted their account' });
    // The balance holds the ledger entry (core/tickets/held-ledger.ts): one UpdateItem; at 16 held, the oldest 8
    // move into a page item in a transaction.
    const key = { pk: `USER#${uid}`, sk: `TICKETS#${projectName}#${level}` };
    const entry = { ref, change: -amount, created_at: now };
    let held: (typeof entry)[];
    try {
      const out = await s.db.send(
        new UpdateCommand({
          TableName: s.table,
          Key: key,
          UpdateExpression: 'SET balance = balance - :amount, updated_at = :now, entries = list_append(if_not_exists(entries, :none), :entry)',
          ConditionExpression: 'balance >= :amount AND NOT contains(entries, :held)',
          ExpressionAttributeValues: { ':amount': amount, ':now': now, ':none': [], ':entry': [entry], ':held': entry },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      held = out.Attributes?.entries ?? [];
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return json(409, { statusCode: 409, message: 'refused' });
      throw error;
    }
    if (held.length >= 16) {
      const page = held.slice(0, 8);
      const first = page[0]!.ref;
      await s.db
        .send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: s.table,
                  Key: key,
                  UpdateExpression: `REMOVE ${page.map((_, i) => `entries[${i}]`).join(', ')} SET pages = if_not_exists(pages, :zero) + :one`,
                  ConditionExpression: 'entries[0].#ref = :first',
                  ExpressionAttributeNames: { '#ref': 'ref' },
                  ExpressionAttributeValues: { ':first': first, ':zero': 0, ':one': 1 },
                },
              },
              {
                Put: {
                  TableName: s.table,
                  Item: {
                    pk: key.pk,
                    sk: `LEDGER#page#${first}`,
                    type: 'ledger',
                    uid,
                    projectName,
                    level,
                    ref: `page#${first}`,
                    change: page.reduce((sum, e) => sum + e.change, 0),
                    created_at: page[0]!.created_at,
                    entries: page,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        )
        .catch((error: Error) => {
          if (error.name !== 'TransactionCanceledException') throw error;
        });
    }
    return json(201, { data: ref, statusCode: 201, message: 'success', totalPage: 1 });
  },
  /**
   * The inner group's addWin without a result_id (core/rankings/reports.ts): the player's gone mark
   * (core/platform/players.ts goneKey) read with the account
   * state, then one transaction of the player's week and month score items, each ADDing to `kills`/`wins` and stamping when they grew; no index
   * keys. The game's owner and the seasons' "to settle" records are remembered in a warm process.
   */
  async addWin(event: Event) {
    const s = await load();
    const sub = await subjectOf(s, event, 'server');
    const input = bodyOf<{ game_code: string; game_player_id: string; game_player_name: string; kills: number; wins: number }>(event);
    const state = await suspended(s, sub, [goneKey(input.game_player_id)]);
    if (state.suspended) return json(403, { statusCode: 403, message: 'merchant is suspended' });
    if (state.alsoFound) return json(404, { statusCode: 404, message: 'this player deleted their account' });
    const now = new Date();
    const at = now.toISOString();
    const seasons = [weekOf(now), monthOf(now)];
    await s.db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...seasons.map((season) => ({
            Update: {
              TableName: s.table,
              Key: { pk: `SCORE#${input.game_code}#${seasonKey(season)}`, sk: `PLAYER#${input.game_player_id}` },
              UpdateExpression:
                'SET game_code = :game, season_type = :type, season_range = :range, game_player_id = :id, game_player_name = :name, updatedAt = :at, ' +
                'killsAt = :at, winsAt = :at ADD kills :kills, wins :wins',
              ExpressionAttributeValues: {
                ':game': input.game_code,
                ':type': season.type,
                ':range': season.range,
                ':id': input.game_player_id,
                ':name': input.game_player_name,
                ':at': at,
                ':kills': input.kills,
                ':wins': input.wins,
              },
            },
          })),
        ],
      }),
    );
    return json(200, { code: 200, data: { game_code: input.game_code, game_player_id: input.game_player_id, kills: input.kills, wins: input.wins } });
  },
  /** The pay group's rechargeOrder with prevId -1 (core/payments/orders.ts). */
  async rechargeOrder(event: Event) {
    const s = await load();
    const uid = await subjectOf(s, event, 'platform');
    const input = bodyOf<{ userId: string; project: string; priceId: number; level: number; amount: number | string }>(event);
    if (input.userId !== uid) return json(403, { statusCode: 403, message: 'userId' });
    const keys = [
      { pk: `PROJECT#${input.project}`, sk: 'PROJECT' },
      { pk: `PROJECT#${input.project}`, sk: `LEVEL#${sortable(input.level, 8)}` },
      { pk: `USER#${uid}`, sk: 'ACCOUNT' },
    ];
    const read = await s.db.send(new BatchGetCommand({ RequestItems: { [s.table]: { Keys: keys, ConsistentRead: true } } }));
    const items = read.Responses?.[s.table] ?? [];
    const [project, level, account] = keys.map((key) => items.find((item) => item.pk === key.pk && item.sk === key.sk));
    if (project?.status !== 1 || level?.status !== 1 || !account) return json(404, { statusCode: 404, message: 'not found' });
    // The price is a DynamoDB number (a bigint past 2^53), the body's amount a number or decimal text.
    if (level.priceId !== input.priceId || String(level.amount_base) !== String(input.amount)) return json(409, { statusCode: 409, message: 'price' });
    const counter = await s.db.send(
      new UpdateCommand({
        TableName: s.table,
        Key: { pk: 'COUNTER#order', sk: 'COUNTER' },
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const id = Number(counter.Attributes?.value);
    const now = new Date().toISOString();
    const order = {
      id,
      project_id: project.project_id,
      deposit_id: null,
      amount_base: level.amount_base,
      wallet_address: account.wallet_address,
      coin_type: level.coin_type,
      tx_type: 1,
      status: 0,
      created_at: now,
      updated_at: now,
      user_id: uid,
      level: level.level,
      precison: level.precison,
      bill_no: `PO${sortable(id, 10)}`,
      tickets: level.tickets,
      project_name: project.project_name,
      receive_address: project.receive_address,
    };
    await s.db.send(
      new PutCommand({
        TableName: s.table,
        Item: {
          pk: `ORDER#${id}`,
          sk: 'ORDER',
          type: 'order',
          ...order,
          gsi1pk: `USER_ORDERS#${uid}`,
          gsi1sk: sortable(id),
          // "orders of a project" (core/payments/order-keys.ts projectOrdersKeys), in 8 shards.
          gsi7pk: `PROJECT_ORDERS#${project.project_name}#${id % 8}`,
          gsi7sk: `${now}#${sortable(id)}`,
        },
      }),
    );
    return json(200, order);
  },
  /**
   * The inner group's gameRank (core/rankings/boards.ts), here of a game whose seasons have 16 board shards (they
   * change nothing): one BatchGetItem of the four boards' top items (core/rankings/keys.ts headTopKey: pk
   * `RANKS#<KILLS|WINS>#<game>#<season>`, sk `TOP`), eventually consistent, each one's first `limit` standings
   * inflated (deflated JSON rows [score, at, id, name]). The game's existence is remembered in a warm process.
   */
  async gameRank16(event: Event) {
    const s = await load();
    const game = event.queryStringParameters?.game_code ?? '';
    const limit = 100;
    const now = new Date();
    const [week, month] = [weekOf(now), monthOf(now)];
    const boards: [string, Season][] = [
      ['KILLS', week],
      ['WINS', week],
      ['KILLS', month],
      ['WINS', month],
    ];
    const keys = boards.map(([board, season]) => ({ pk: `RANKS#${board}#${game}#${seasonKey(season)}`, sk: 'TOP' }));
    const out = await s.db.send(new BatchGetCommand({ RequestItems: { [s.table]: { Keys: keys } } }));
    const items = out.Responses?.[s.table] ?? [];
    const [weekKills, weekWins, monthKills, monthWins] = keys.map((key) => {
      const item = items.find((found) => found.pk === key.pk);
      if (!item) return [];
      return (JSON.parse(inflateRawSync(item.data as Uint8Array).toString('utf8')) as [number, string, string, string][])
        .slice(0, limit)
        .map(([score, , id, name]) => ({ total: String(score), game_player_id: id, game_player_name: name }));
    });
    return json(200, {
      code: 200,
      message: 'success',
      data: { gameWeekKillRank: weekKills, gameWeekWinRank: weekWins, gameMothKillRank: monthKills, gameMothWinRank: monthWins },
    });
  },
};
