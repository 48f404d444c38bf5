import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { createRemoteJWKSet, importJWK, type JWK, jwtVerify } from 'jose';

/**
 * The floor of the cold-start measure: a request's own work with no framework of ours. Hono and its Lambda
 * adapter, the DynamoDB clients and jose, bundled exactly like a group's function. Its one route verifies the
 * request's bearer token as the operation must (`BENCH_VERIFY`: a platform token, Google's push token, or
 * none) and sends, one after another, the DynamoDB requests the group's function sent for the same request
 * (`BENCH_CALLS`, recorded at the network edge by bench/first-response.ts); a refused write still made its
 * round trip. Configured from the same SST_RESOURCE_* variables and DYNAMODB_ENDPOINT as the functions.
 */
const resource = (name: string) => JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? '{}');
const endpoint = process.env.DYNAMODB_ENDPOINT;
const client = new DynamoDBClient(endpoint ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {});
// The groups read through the document client; the floor holds it too, so both load the same SDK code.
DynamoDBDocumentClient.from(client);

const commands = {
  GetItem: GetItemCommand,
  BatchGetItem: BatchGetItemCommand,
  Query: QueryCommand,
  PutItem: PutItemCommand,
  UpdateItem: UpdateItemCommand,
  DeleteItem: DeleteItemCommand,
  BatchWriteItem: BatchWriteItemCommand,
  TransactGetItems: TransactGetItemsCommand,
  TransactWriteItems: TransactWriteItemsCommand,
} as const;

async function verify(authorization: string | undefined) {
  const token = authorization?.replace(/^Bearer /, '') ?? '';
  if (process.env.BENCH_VERIFY === 'platform') {
    const key: JWK = resource('TokenPublicKeys').keys?.[0] ?? JSON.parse(resource('TokenSigningKey').value);
    const { d: _private, ...publicJwk } = key;
    await jwtVerify(token, await importJWK(publicJwk, 'ES256'), { issuer: `game-platform/${resource('App').stage}` });
  } else if (process.env.BENCH_VERIFY === 'google') {
    const settings = JSON.parse(resource('GoogleConfig').value);
    await jwtVerify(token, createRemoteJWKSet(new URL(settings.googleCerts)), { issuer: 'https://accounts.google.com', audience: settings.pushAudience });
  }
}

const app = new Hono();
app.all('*', async (c) => {
  await verify(c.req.header('authorization'));
  let last: unknown = null;
  for (const { operation, input } of JSON.parse(process.env.BENCH_CALLS ?? '[]') as { operation: keyof typeof commands; input: never }[]) {
    const Command = commands[operation] as unknown as new (input: never) => GetItemCommand;
    last = await client.send(new Command(input)).catch((error: Error) => ({ refused: error.name }));
  }
  return c.json({ code: 200, data: last });
});

export const handler = handle(app);
