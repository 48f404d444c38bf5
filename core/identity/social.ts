import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { transactOrFailedConditions } from '../platform/transactions.js';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import type { IdentityDeps } from './deps.js';
import { identityError } from './errors.js';
import { findAccount } from './accounts.js';
import { listingKey, SOCIAL_PREFIX, socialKey, userPartition } from './keys.js';
import { SocialBinding, type SocialUser } from './models.js';

/**
 * Social accounts bound to platform users. A social account (provider, sub of its id_token) belongs to one
 * user; a user may bind several. Access patterns:
 * - "user of a social account": pk `SOCIAL#<provider>#<socialId>`, sk `SOCIAL` (makes the binding unique);
 * - "social accounts of a user": pk `USER#<uid>`, sk `SOCIAL#<provider>#<socialId>`.
 * Both items are written in one transaction, so neither exists without the other.
 */
type Binding = z.infer<typeof SocialBinding>;

/** "social accounts of a user" (listingKey) store the binding; "user of a social account" (socialKey) adds its user. */
const toBinding = (item: Record<string, unknown>): Binding => SocialBinding.parse(item);
export const SocialHolder = z.lazy(() => z.extend(objectOf(SocialBinding), { uid: z.string() }));

/** query social bind: the caller's bindings, in one Query (sorted by provider, then social id). */
export async function listSocialBindings(deps: IdentityDeps, uid: string): Promise<Binding[]> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :social)',
      ExpressionAttributeValues: { ':pk': userPartition(uid), ':social': SOCIAL_PREFIX },
    }),
  );
  return (out.Items ?? []).map(toBinding);
}

/**
 * bind social: binds the social account the id_token proves to `uid`. Binding it again to the same user
 * returns the first binding unchanged; a social account of another user is 409.
 */
export async function bindSocial(deps: IdentityDeps, uid: string, idToken: string): Promise<Binding> {
  const token = await deps.idTokens.verify(idToken);
  const binding: Binding = {
    provider: token.provider,
    socialId: token.sub,
    ...(token.email ? { email: token.email } : {}),
    bound_at: deps.now().toISOString(),
  };
  const key = socialKey(binding.provider, binding.socialId);
  // Only the first binding writes: a repeated one fails its condition and is answered from what is stored.
  // Racing binders collide on the social item (DynamoDB cancels overlapping transactions); the platform retries.
  const failed = await transactOrFailedConditions(
    deps,
    [
      { Put: { TableName: deps.table, Item: { ...key, type: 'social', uid, ...binding }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: deps.table, Item: { ...listingKey(uid, binding.provider, binding.socialId), type: 'social_binding', ...binding } } },
    ],
    'id_token: this social account is being bound concurrently; retry',
  );
  if (failed.length === 0) return binding;
  const { uid: holder, ...stored } = SocialHolder.parse((await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }))).Item);
  if (holder !== uid) throw identityError('social.bound_to_other_user', `id_token: this ${binding.provider} account is bound to another user`);
  return stored;
}

/**
 * querybysocialid: the user bound to a social account, with the user's wallet address (null before the user
 * has an account). Two reads: the account's key is only known from the binding.
 */
export async function userBySocialId(deps: IdentityDeps, provider: string, socialId: string): Promise<z.infer<typeof SocialUser>> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: socialKey(provider, socialId), ConsistentRead: true }));
  if (!out.Item) throw identityError('social.not_bound', 'no user is bound to that social account');
  const { uid } = SocialHolder.parse(out.Item);
  const account = await findAccount(deps, uid);
  return { uid, provider, socialId, wallet_address: account?.wallet_address ?? null };
}
