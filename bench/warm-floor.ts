import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';

/**
 * The warm-cost floor: Lambda handlers that do what an operation cannot avoid (verify the bearer token where
 * the operation needs one, make the same DynamoDB calls, serialise the item) with no framework work: no
 * router, no validation, no envelopes. Bundled like a function and driven with the same API Gateway v2
 * events as the group's handler (bench/warm.ts). Configured from the same SST_RESOURCE_* variables.
 */
interface Event {
  rawPath: string;
  headers: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
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
    const client = new DynamoDBClient(
      endpoint ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
    );
    return {
      db: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      table: resource('Table').name,
      issuer: `game-platform/${resource('App').stage}`,
      publicKey: (await importJWK(publicJwk, 'ES256')) as CryptoKey,
    };
  })());

const json = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function subjectOf(s: Setup, event: Event): Promise<string> {
  const token = event.headers.authorization?.slice('Bearer '.length) ?? '';
  const { payload } = await jwtVerify(token, s.publicKey, { algorithms: ['ES256'], issuer: s.issuer, audience: 'merchant' });
  return String(payload.sub);
}

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
};
