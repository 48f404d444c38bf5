import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import * as z from 'zod/mini';
import { requireMerchant } from '../merchants/merchants.js';
import { readItems } from '../platform/batch.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import type { PlatformDeps } from '../platform/deps.js';
import { tokenLifetimes, type TokenClaims } from '../platform/tokens.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { outlastRememberedStates } from '../platform/process-memory.js';
import { ConcurrentChange } from '../platform/transactions.js';
import { accessError } from './errors.js';
import { revocationKey, SERVER_TOKEN_PREFIX, serverTokenKey, serverTokensPartition } from './keys.js';
import { forgetPrincipalState, principalStateOf } from './principals.js';

/**
 * A merchant's server tokens, each with an id (its `jti`) and a name, listed and revoked one by one
 * (docs/security.md "Server tokens by name"):
 * - each issued token is recorded at pk `SERVERTOKENS#<accountId>`, sk `TOKEN#<id>` (its name, issue and expiry
 *   times; TTL at its expiry): never the token itself;
 * - revoking one puts its id, with its expiry, in `serverRevoked` on the account's revocation item
 *   (`REVOKE#<accountId>`, principals.ts), the item the authorization layer already reads for every server token,
 *   so checking the id costs no request of its own. Each revocation drops the ids of tokens that have expired, and
 *   refuses (409) past MAX_REVOKED live ids, which keeps the item (and each read of it) small.
 * Ids begin with their issue time, so a partition's tokens sort newest first by key.
 */
export const MAX_REVOKED = 1000;
const PAGE = 50;
const TYPE = 'server-token';

/** An id beginning with `at` (epoch ms, base 36, 9 characters: ids sort by issue time) and 96 random bits. */
const idPrefix = (at: number) => at.toString(36).padStart(9, '0');
const newTokenId = (at: number) => idPrefix(at) + randomBytes(12).toString('base64url');

/** "a merchant's server token" (serverTokenKey), as stored. */
export const ServerTokenItem = z.object({
  id: z.string(),
  name: z.string(),
  issuedAt: z.string(),
  tokenExpiresAt: z.string(),
});
type ServerTokenItem = z.infer<typeof ServerTokenItem>;

export interface ServerTokenEntry {
  id: string;
  name: string;
  issued_at: string;
  expires_at: string;
  revoked: boolean;
}

const entryOf = (token: ServerTokenItem, revoked: boolean): ServerTokenEntry => ({
  id: token.id,
  name: token.name,
  issued_at: token.issuedAt,
  expires_at: token.tokenExpiresAt,
  revoked,
});

/**
 * Issues a server token for the caller's merchant under `name` (get_token's are named ''), and records it. The
 * token is signed first and answered only once its record is written, so no unlisted token leaves.
 */
export async function issueServerToken(deps: PlatformDeps, caller: TokenClaims, name: string) {
  // A suspended merchant's console gets no server token: the route's policy, checked by the authorization layer.
  const merchant = await requireMerchant(deps, caller.sub);
  const id = newTokenId(deps.now().getTime());
  const { token, expiresAt } = await deps.tokens.issue('server', caller.sub, { merchant_id: merchant.id, jti: id });
  const issuedAt = new Date(Math.round(Number(decodeJwt(token).iat) * 1000)).toISOString();
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...serverTokenKey(caller.sub, id),
        type: TYPE,
        id,
        name,
        issuedAt,
        tokenExpiresAt: expiresAt,
        expiresAt: Math.ceil(Date.parse(expiresAt) / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { accessToken: token, expiresAt, merchant_id: merchant.id, id, name, issued_at: issuedAt };
}

/** A token is revoked by its id, or by the all-at-once instant of the merchant's server tokens. */
const isRevoked = (token: ServerTokenItem, ids: Record<string, number>, serverBefore: number) =>
  Object.hasOwn(ids, token.id) || Date.parse(token.issuedAt) <= serverBefore;

/**
 * The caller's live server tokens, newest first, a page of PAGE at a time: one Query (tokens issued within the
 * server token lifetime) and one read of the revocation item.
 */
export async function listServerTokens(deps: PlatformDeps, accountId: string, cursor: string | undefined) {
  const now = deps.now().getTime();
  const lowest = `${SERVER_TOKEN_PREFIX}${idPrefix(now - tokenLifetimes.server * 1000)}`;
  const scope = 'server_tokens';
  const start = cursor
    ? decodeCursor(deps, cursor, { owner: accountId, scope, attributes: ['sk'], within: (key) => key.sk! > lowest && key.sk!.startsWith(SERVER_TOKEN_PREFIX) })
    : undefined;
  const [page, revocation] = await Promise.all([
    deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND sk > :lowest',
        ExpressionAttributeValues: { ':pk': serverTokensPartition(accountId), ':lowest': lowest },
        ScanIndexForward: false,
        Limit: PAGE,
        ...(start ? { ExclusiveStartKey: { pk: serverTokensPartition(accountId), sk: start.sk } } : {}),
      }),
    ),
    deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey(accountId), ConsistentRead: true })),
  ]);
  const state = principalStateOf(revocation.Item);
  const items = (page.Items ?? [])
    .map((item) => ServerTokenItem.parse(item))
    .filter((token) => Date.parse(token.tokenExpiresAt) > now)
    .map((token) => entryOf(token, isRevoked(token, state.ids, state.serverBefore)));
  const last = page.LastEvaluatedKey?.sk;
  return { items, next: typeof last === 'string' ? encodeCursor(deps, accountId, scope, { sk: last }) : null };
}

/**
 * Revokes one of the caller's server tokens by its id: refused by every value-moving call from the answer on (which
 * waits out the state they may remember: outlastRememberedStates), by other calls once the state their process
 * remembers is refreshed (STATE_TTL_MS), and at once in this process. An id that is not one of the caller's live
 * tokens is 404 (ids of other merchants cannot be probed). A token revoked already answers the same and writes
 * nothing. One conditional write of the revocation item, made on the version read (a concurrent revocation is read
 * again and retried).
 */
export async function revokeServerToken(deps: PlatformDeps, accountId: string, id: string): Promise<ServerTokenEntry> {
  return retrying(
    async () => {
      const [record, revocation] = await readItems(deps, [serverTokenKey(accountId, id), revocationKey(accountId)]);
      const now = deps.now().getTime();
      const token = record && ServerTokenItem.parse(record);
      if (!token || Date.parse(token.tokenExpiresAt) <= now) throw accessError('access.not_found', `id: no live server token ${id}`);
      const state = principalStateOf(revocation);
      // Revoked already, perhaps by a request still waiting out the remembered states: this answer waits as long.
      if (isRevoked(token, state.ids, state.serverBefore)) {
        await outlastRememberedStates();
        return entryOf(token, true);
      }
      const live = Object.fromEntries(Object.entries(state.ids).filter(([, exp]) => exp * 1000 > now));
      if (Object.keys(live).length >= MAX_REVOKED) {
        throw accessError(
          'access.too_many_revoked',
          `this merchant has ${MAX_REVOKED} revoked server tokens that have not expired yet: revoke all its server tokens at once instead ({"tokens":"server"})`,
        );
      }
      const seen = state.version;
      try {
        await deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: revocationKey(accountId),
            UpdateExpression: 'SET serverRevoked = :ids, serverRevokedVersion = :next, #type = :type',
            ConditionExpression: seen === undefined ? 'attribute_not_exists(serverRevokedVersion)' : 'serverRevokedVersion = :seen',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':ids': { ...live, [id]: Math.ceil(Date.parse(token.tokenExpiresAt) / 1000) },
              ':next': Number(seen ?? 0) + 1,
              ':type': 'revocation',
              ...(seen === undefined ? {} : { ':seen': seen }),
            },
          }),
        );
        forgetPrincipalState(deps, accountId);
        await outlastRememberedStates();
        return entryOf(token, true);
      } catch (error) {
        if (!isConditionalFailure(error)) throw error;
        // Revoked concurrently: the version moved; read again.
        return AGAIN;
      }
    },
    {
      giveUp: () => {
        throw new ConcurrentChange('server tokens of this merchant were revoked concurrently; retry');
      },
    },
  );
}
