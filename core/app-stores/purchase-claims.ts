import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { StoresDeps } from './deps.js';
import { conditionHeld, conditionalFailure } from '../platform/conditional-failure.js';
import { retrying, rethrowLast } from '../platform/retry.js';
import { isWriteConflict } from '../platform/transactions.js';
import { storeTxKey } from './keys.js';

/**
 * The once-only key of an app store purchase: one item per store transaction, `STORETX#<store>#<transactionId>`,
 * sk `STORETX`, put on condition it is absent by whichever comes first of
 * - the credit: the purchase paid an order (`orderId`), put in the transaction that credits it
 *   (core/app-stores/complete.ts), or
 * - a refund or revocation of a purchase nothing credited yet: the purchase is barred (`barred`: why, orderId
 *   null), so no later credit can claim it, whatever order the store's messages and the app's verification come
 *   in. A purchase credited first is refunded through its order instead (core/app-stores/refunds.ts).
 * A reversed refund lifts a bar (the purchase may be credited again); it never touches a credit's claim.
 * Every claim is one purchase's item: no item shared by players enters these writes.
 */

export type Store = 'apple' | 'google';

/** Why a purchase was barred: the store refunded it, revoked it (Family Sharing), or voided it (Google Play). */
export type BarReason = 'refunded' | 'revoked' | 'voided';

/** "a store purchase's claim" (storeTxKey), as stored. */
export const ClaimItem = z.object({
  orderId: z.nullable(z.number()),
  barred: z.optional(z.enum(['refunded', 'revoked', 'voided'])),
});

/** A purchase's claim: the order it paid, or (orderId null) the reason it is barred. */
export type Claim = z.infer<typeof ClaimItem>;

/** The claim an item holds; undefined for no item. */
export const claimOf = (item: Record<string, unknown> | undefined): Claim | undefined => (item ? ClaimItem.parse(item) : undefined);

/** The claim of a purchase, read strongly consistent (it decides money). */
export async function readClaim(deps: Pick<StoresDeps, 'db' | 'table'>, store: Store, transactionId: string): Promise<Claim | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: storeTxKey(store, transactionId), ConsistentRead: true }));
  return claimOf(out.Item);
}

/**
 * Bars a purchase nothing credited: the claim is put on condition it is absent. Answers the claim that stands
 * afterwards: the bar just put (`barred: true`), or the claim that was there first (a credit, or an earlier bar).
 */
export async function barPurchase(
  deps: Pick<StoresDeps, 'db' | 'table' | 'now'>,
  purchase: { store: Store; transactionId: string },
  reason: BarReason,
  ref: string,
): Promise<{ barred: boolean; claim: Claim }> {
  const item = {
    ...storeTxKey(purchase.store, purchase.transactionId),
    type: 'store_tx',
    orderId: null,
    barred: reason,
    barred_by: ref,
    created_at: deps.now().toISOString(),
  };
  try {
    // The credit's transaction may be writing the claim at this moment: the put is then refused as a conflict,
    // with nothing written, and is sent again (it then finds the credit's claim, or puts the bar).
    await retrying(
      () =>
        deps.db.send(
          new PutCommand({
            TableName: deps.table,
            Item: item,
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      {
        retryOn: isWriteConflict,
        giveUp: rethrowLast,
      },
    );
    return { barred: true, claim: { orderId: null, barred: reason } };
  } catch (error) {
    const failed = conditionalFailure(error);
    if (!failed) throw error;
    // The claim there first comes back with the failure; read it should it not.
    const claim = claimOf(failed.item) ?? (await readClaim(deps, purchase.store, purchase.transactionId));
    if (!claim) throw error;
    return { barred: false, claim };
  }
}

/** Lifts a purchase's bar (its refund was reversed); false when there was none to lift (lifted meanwhile). */
export async function liftBar(deps: Pick<StoresDeps, 'db' | 'table'>, purchase: { store: Store; transactionId: string }): Promise<boolean> {
  return conditionHeld(
    deps.db.send(
      new DeleteCommand({ TableName: deps.table, Key: storeTxKey(purchase.store, purchase.transactionId), ConditionExpression: 'attribute_exists(barred)' }),
    ),
  );
}
