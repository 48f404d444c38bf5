import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Url } from '../platform/digest.js';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PartnerStoreDeps } from './deps.js';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { AssertionJwk, assertionKeyOf } from './assertion-keys.js';
import { STORE_REGIONS, type StoreRegion } from './regions.js';

/**
 * Partner clients, registered per region by an operator (`npm run admin -- register-store-client`). Access
 * pattern "a client of a region": pk `STORECLIENT#<region>#<client_id>`, sk `STORECLIENT`.
 *
 * Confidential clients get a secret shown once; the table keeps its SHA-256 only. Secrets are 32 random bytes
 * (256 bits), so a fast hash is enough: there is nothing to guess (a slow password hash is for low-entropy
 * passwords), and comparing the hashes in constant time keeps timing from telling anything.
 */
const StoreClient = z.lazy(() =>
  z.object({
    client_id: z.string(),
    region: z.enum(STORE_REGIONS),
    type: z.enum(['public', 'confidential']),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    scopes: z.array(z.string()),
    created_at: z.string(),
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
const StoredClient = z.lazy(() =>
  z.extend(z.omit(objectOf(StoreClient), { type: true }), { client_type: objectOf(StoreClient).shape.type, secret_hash: z.optional(z.string()) }),
);

/**
 * What a client id may be wherever one comes in (a query, a form, HTTP Basic, an assertion's `iss`): RFC 6749
 * Appendix A.1's characters (printable ASCII), at most 64 of them. Ours are `sc_` and 16 base64url characters;
 * the bound keeps any id asked for far inside DynamoDB's 2,048-byte limit on a key (`STORECLIENT#…`, and the
 * sign-in keys that hold the id), so a made-up one is refused as input instead of failing the read.
 */
export const CLIENT_ID_MAX = 64;
export const CLIENT_ID_PATTERN = new RegExp(`^[\\x20-\\x7e]{1,${CLIENT_ID_MAX}}$`);
export const CLIENT_ID_RULE = `1-${CLIENT_ID_MAX} printable ASCII characters`;
export const isClientId = (id: string) => CLIENT_ID_PATTERN.test(id);

/** The scopes a partner client may be granted. */
export const STORE_SCOPES = ['profile', 'currencies', 'items', 'pets', 'grants'] as const;

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

export const clientKey = (region: StoreRegion, clientId: string) => ({ pk: `STORECLIENT#${region}#${clientId}`, sk: 'STORECLIENT' });

export async function registerClient(
  deps: Pick<PartnerStoreDeps, 'db' | 'table' | 'now'>,
  input: { region: StoreRegion; type: ClientType; name: string; redirect_uris: string[]; scopes: string[]; assertion_jwk?: unknown },
): Promise<{ client: StoreClient; client_secret?: string }> {
  for (const uri of input.redirect_uris) {
    const url = new URL(uri);
    if (url.hash) throw new Error(`redirect URI ${uri}: must not have a fragment (RFC 6749 §3.1.2)`);
    // RFC 8252: http only for loopback; native apps may use their own (private-use) schemes.
    if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
      throw new Error(`redirect URI ${uri}: http is for loopback addresses only`);
  }
  let assertionJwk: AssertionJwk | undefined;
  if (input.assertion_jwk !== undefined) {
    if (input.type !== 'confidential') throw new Error('assertion key: only a confidential client (a partner backend) signs users in');
    try {
      assertionJwk = await assertionKeyOf(input.assertion_jwk);
    } catch (error) {
      throw new Error(`assertion key: ${(error as Error).message}`);
    }
  }
  for (const scope of input.scopes)
    if (!(STORE_SCOPES as readonly string[]).includes(scope)) throw new Error(`scope ${scope}: one of ${STORE_SCOPES.join(', ')}`);
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

/** A region's client and its secret's hash; undefined when the region has no such client (or the id could name none). */
export async function findClient(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, region: StoreRegion, clientId: string) {
  if (!isClientId(clientId)) return undefined;
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKey(region, clientId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { client_type, secret_hash, ...client } = StoredClient.parse(out.Item);
  return { client: { ...client, type: client_type } satisfies StoreClient, secretHash: secret_hash };
}

/** Whether `secret` is the client's (constant time). */
export function secretMatches(secretHash: string | undefined, secret: string): boolean {
  if (!secretHash) return false;
  const a = Buffer.from(sha256Url(secret));
  const b = Buffer.from(secretHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
