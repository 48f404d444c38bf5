import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { importJWK, jwtVerify, type JWK } from 'jose';

/**
 * The floor of the cold-start measure: what nearly every operation cannot do without, with no framework of
 * ours. Hono and its Lambda adapter, the DynamoDB document client and jose, bundled exactly like a group's
 * function; its one route verifies the merchant's bearer token and reads the merchant's item (what
 * get_merchant_info does). A group's cold init and first response are judged by their ratio to this one's.
 * Configured from the same SST_RESOURCE_* variables and DYNAMODB_ENDPOINT as the deployed functions.
 */
const resource = (name: string) => JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? '{}');
const endpoint = process.env.DYNAMODB_ENDPOINT;
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient(endpoint ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
);
let publicKey: ReturnType<typeof importJWK> | undefined;

const app = new Hono();
app.get('*', async (c) => {
  const { d: _private, ...jwk } = JSON.parse(resource('TokenSigningKey').value ?? '{}') as JWK;
  publicKey ??= importJWK(jwk, 'ES256');
  const token = c.req.header('authorization')?.slice('Bearer '.length) ?? '';
  const { payload } = await jwtVerify(token, await publicKey, { issuer: `game-platform/${resource('App').stage}`, audience: 'merchant' });
  const out = await db.send(new GetCommand({ TableName: resource('Table').name, Key: { pk: `MERCHANT#${payload.sub}`, sk: 'MERCHANT' } }));
  return c.json({ code: 200, data: out.Item ?? null });
});

export const handler = handle(app);
