import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Url } from '../platform/digest.js';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import { platformError } from '../platform/errors.js';
import type { PartnerStoreDeps } from './deps.js';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { AssertionJwk, assertionKeyOf } from './assertion-keys.js';
import { storeError } from './errors.js';
import { StoreClientFields } from './models.js';
import { isClientId, redirectUriProblem, STORE_SCOPES, type StoreRegion } from './names.js';
import { clientKey, clientListKey, clientListPartition } from './keys.js';

/**
 * Partner clients, registered per region by an operator (`npm run admin -- register-store-client`) or an admin
 * through the API (store client register). Access patterns: "a client of a region": pk
 * `STORECLIENT#<region>#<client_id>`, sk `STORECLIENT`; "a region's clients, newest first": the sparse gsi1pk
 * `STORECLIENTS#<region>`, gsi1sk `<created_at>#<client_id>` (clientListKey), written with the client (clients
 * registered before it have none and are not listed until `npm run admin -- backfill-indexes` gives them theirs).
 *
 * Confidential clients get a secret shown once; the table keeps its SHA-256 only. Secrets are 32 random bytes
 * (256 bits), so a fast hash is enough: there is nothing to guess (a slow password hash is for low-entropy
 * passwords), and comparing the hashes in constant time keeps timing from telling anything.
 */
export const StoreClient = z.lazy(() =>
  z.extend(StoreClientFields, {
    /**
     * The public key the client signs store sign-in assertions with (store login, core/partner-store/sessions.ts): the
     * partner store's own backend is registered with one. An ES256 or EdDSA public JWK (core/partner-store/assertion-keys.ts).
     */
    assertion_jwk: z.optional(AssertionJwk),
  }),
);
export type StoreClient = z.infer<typeof StoreClient>;
export type ClientType = StoreClient['type'];

/**
 * "a client of a region" (clientKey): the client with its type as `client_type` (the item's `type` names its kind),
 * and a confidential client's secret hash.
 */
export const StoredClient = z.lazy(() =>
  z.extend(z.omit(objectOf(StoreClient), { type: true }), { client_type: objectOf(StoreClient).shape.type, secret_hash: z.optional(z.string()) }),
);

/**
 * The scopes asked (space-delimited, RFC 6749 §3.3), each once, when every one is within `allowed`; all of
 * `allowed` when none are asked. Otherwise `outside` names the first asked scope that is not: what a client
 * may ask of its registration (authorize2, client_credentials) and a refresh of its grant (§6).
 */
export function scopeWithin(allowed: readonly string[], asked: string | undefined): { scope: string } | { outside: string } {
  if (asked === undefined) return { scope: allowed.join(' ') };
  const scopes = [...new Set(asked.split(' ').filter(Boolean))];
  const outside = scopes.find((scope) => !allowed.includes(scope));
  return outside === undefined ? { scope: scopes.join(' ') } : { outside };
}

/**
 * Registers a client, checking every rule first (nothing is written when one fails): each redirect URI
 * (redirectUriProblem) and scope (STORE_SCOPES) as 400 `input.invalid`, the assertion key as 400
 * `store.assertion_key_public_client` or `store.assertion_key_invalid`, each message naming the field as the
 * API's body names it. A confidential client's secret is answered here, once; the table keeps its SHA-256.
 */
export async function registerClient(
  deps: Pick<PartnerStoreDeps, 'db' | 'table' | 'now'>,
  input: { region: StoreRegion; type: ClientType; name: string; redirect_uris: string[]; scopes: string[]; assertion_jwk?: unknown },
): Promise<{ client: StoreClient; client_secret?: string }> {
  input.redirect_uris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) throw platformError('input.invalid', `body.redirect_uris.${index}: ${problem}`);
  });
  input.scopes.forEach((scope, index) => {
    if (!(STORE_SCOPES as readonly string[]).includes(scope))
      throw platformError('input.invalid', `body.scopes.${index}: expected one of ${STORE_SCOPES.join(', ')}`);
  });
  let assertionJwk: AssertionJwk | undefined;
  if (input.assertion_jwk !== undefined) {
    if (input.type !== 'confidential')
      throw storeError('store.assertion_key_public_client', 'body.assertion_jwk: only a confidential client (a partner backend) signs users in');
    try {
      assertionJwk = await assertionKeyOf(input.assertion_jwk);
    } catch (error) {
      throw storeError('store.assertion_key_invalid', `body.assertion_jwk: ${(error as Error).message}`);
    }
  }
  const client: StoreClient = {
    client_id: `sc_${randomBytes(12).toString('base64url')}`,
    region: input.region,
    type: input.type,
    name: input.name,
    redirect_uris: input.redirect_uris,
    scopes: input.scopes,
    created_at: deps.now().toISOString(),
    ...(assertionJwk ? { assertion_jwk: assertionJwk } : {}),
  };
  const client_secret = input.type === 'confidential' ? randomBytes(32).toString('base64url') : undefined;
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...clientKey(input.region, client.client_id),
        ...clientListKey(client),
        ...client,
        type: 'store_client',
        client_type: client.type,
        ...(client_secret ? { secret_hash: sha256Url(client_secret) } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { client, ...(client_secret ? { client_secret } : {}) };
}

/** A client as an admin sees it: never its secret nor the secret's hash; whether it signs users in, not its key. */
const clientView = ({ assertion_jwk, ...client }: StoreClient) => ({ ...client, has_assertion_key: assertion_jwk !== undefined });

/** store client register: the client registered, with a confidential client's secret (shown this once). */
export async function registerClientAnswer(deps: Pick<PartnerStoreDeps, 'db' | 'table' | 'now'>, input: Parameters<typeof registerClient>[1]) {
  const { client, client_secret } = await registerClient(deps, input);
  return { ...clientView(client), ...(client_secret ? { client_secret } : {}) };
}

/**
 * store client list: a region's clients, newest first, at most `limit` a page ("a region's clients, newest first",
 * gsi1). The cursor is the last client's keys, bound to the region and this read (core/platform/cursors.ts), so
 * one of another region or read is 400 naming `cursor`. A client's secret hash is dropped by its model.
 */
export async function listClients(
  deps: Pick<PartnerStoreDeps, 'db' | 'table' | 'cursorKey'>,
  query: { region: StoreRegion; cursor?: string | undefined; limit: number },
): Promise<{ clients: ReturnType<typeof clientView>[]; next: string | null }> {
  const partition = clientListPartition(query.region);
  const start =
    query.cursor === undefined
      ? undefined
      : decodeCursor(deps, query.cursor, {
          owner: query.region,
          scope: 'store_clients',
          attributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
          within: (key) => key.gsi1pk === partition && key.sk === 'STORECLIENT' && key.pk!.startsWith(clientKey(query.region, '').pk),
        });
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
      Limit: query.limit + 1,
    }),
  );
  const listed = out.Items ?? [];
  const page = listed.slice(0, query.limit);
  const last = listed.length > query.limit ? page.at(-1) : out.LastEvaluatedKey;
  return {
    clients: page.map((item) => clientView(clientOf(item))),
    next: last
      ? encodeCursor(deps, query.region, 'store_clients', {
          pk: String(last.pk),
          sk: String(last.sk),
          gsi1pk: String(last.gsi1pk),
          gsi1sk: String(last.gsi1sk),
        })
      : null,
  };
}

/** A client item's record (StoredClient), its secret hash apart. */
function storedClientOf(item: Record<string, unknown>) {
  const { client_type, secret_hash, ...client } = StoredClient.parse(item);
  return { client: { ...client, type: client_type } satisfies StoreClient, secretHash: secret_hash };
}
const clientOf = (item: Record<string, unknown>) => storedClientOf(item).client;

/** A region's client and its secret's hash; undefined when the region has no such client (or the id could name none). */
export async function findClient(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, region: StoreRegion, clientId: string) {
  if (!isClientId(clientId)) return undefined;
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKey(region, clientId), ConsistentRead: true }));
  return out.Item ? storedClientOf(out.Item) : undefined;
}

/** Whether `secret` is the client's (constant time). */
export function secretMatches(secretHash: string | undefined, secret: string): boolean {
  if (!secretHash) return false;
  const a = Buffer.from(sha256Url(secret));
  const b = Buffer.from(secretHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
