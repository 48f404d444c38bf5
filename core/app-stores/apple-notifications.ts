import { readItems } from '../platform/batch.js';
import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload } from '@apple/app-store-server-library';
import type * as z from 'zod/mini';
import type { StoresDeps } from './deps.js';
import { DomainError } from '../platform/errors.js';
import { storesError } from './errors.js';
import { logError } from '../platform/log.js';
import { findOrder, orderByStoreLink } from '../payments/orders.js';
import { appStoreSettings, verifyNotification, verifyTransaction } from './apple.js';
import { answerConsumptionRequest } from './apple-consumption.js';
import { assertBuys } from './apple-purchases.js';
import { completeByStorePurchase } from './complete.js';
import { noteKey, storeTxKey } from './keys.js';
import { claimOf, type Claim } from './purchase-claims.js';
import { type AppleNotificationBody, type NotificationAnswer as NotificationAnswerSchema, SeenNotification } from './models.js';
import { recordNotification } from './notification-records.js';
import { refundByStore } from './refunds.js';

/**
 * app_asdn-v2-callback (docs/api.md, "App Store and Google Play purchases"): App Store Server Notifications v2. Apple
 * POSTs `{signedPayload}`, a JWS verified to the stage's root like a transaction (core/app-stores/apple.ts); a 200
 * acknowledges it, anything else makes Apple send it again later (hours, then days). So:
 * - unverifiable (forged, another root, another app or environment): 400, nothing written, Apple retries;
 * - verified: handled, then recorded once under its notificationUUID (pk `APPLENOTE#<uuid>`), and answered
 *   200 with what it did. A notification delivered again finds its record and changes nothing; deliveries
 *   racing each other are safe because each effect is itself once-only (the store transaction's claim, the
 *   order's status condition);
 * - ONE_TIME_CHARGE (a consumable bought): completes the order the purchase's appAccountToken names, as
 *   app-verify-transaction does; whichever arrives first credits, the other changes nothing;
 * - REFUND and REVOKE: take the order's tickets back (never below zero; the shortfall recorded; status 3);
 *   REFUND_REVERSED gives them back. A purchase nothing credited yet is barred instead, so neither a later
 *   ONE_TIME_CHARGE nor the app's verification credits it (core/app-stores/refunds.ts);
 * - CONSUMPTION_REQUEST (the customer asked Apple for a refund): answered through the App Store Server API
 *   with what the platform knows of the purchase (core/app-stores/apple-consumption.ts); Apple unreachable is
 *   503, so it asks again;
 * - TEST and every other type: recorded and acknowledged;
 * - a purchase that cannot be matched to an order (no link, another product, a paid order) is recorded with
 *   why, and acknowledged: sending it again would not change the answer; nothing is credited.
 */

/**
 * What the platform did (`outcome`): credited, already_credited, refunded, already_refunded, refund_reversed,
 * not_refunded, barred, already_barred, bar_lifted (a refund before any credit, core/app-stores/refunds.ts),
 * recorded (a type with no effect here), duplicate (delivered before), unmatched (a purchase
 * or refund no order of this stage takes; recorded with why).
 */
export type NotificationAnswer = z.infer<typeof NotificationAnswerSchema>;

export async function receiveAppleNotification(deps: StoresDeps, input: z.infer<typeof AppleNotificationBody>): Promise<NotificationAnswer> {
  const settings = appStoreSettings(deps);
  const payload = await verifyNotification(settings, input.signedPayload);
  const uuid = payload.notificationUUID;
  const type = String(payload.notificationType ?? '');
  if (!uuid || !type) throw storesError('appstore.notification_invalid', 'signedPayload: the notification has no notificationUUID or notificationType');

  // The purchase a notification is about, verified like any signed transaction (types with no effect here carry
  // none that matters); then the notification's record and the purchase's claim, read together.
  const transaction = EFFECTFUL.includes(type) ? await signedTransaction(deps, payload, type) : undefined;
  const [seen, claimItem] = await readItems(deps, [noteKey(uuid), ...(transaction ? [storeTxKey('apple', transaction.transactionId!)] : [])]);
  const claim = claimOf(claimItem);
  if (seen) return { notificationUUID: uuid, notificationType: type, outcome: 'duplicate', orderId: SeenNotification.parse(seen).orderId };

  const handled: Handled = !transaction
    ? { outcome: 'recorded', orderId: null }
    : type === 'ONE_TIME_CHARGE'
      ? await charge(deps, transaction, claim)
      : type === 'CONSUMPTION_REQUEST'
        ? await consumption(deps, payload, transaction, claim)
        : await refundEvent(deps, transaction, claim, type, uuid);
  const item = {
    ...noteKey(uuid),
    type: 'apple_notification',
    notificationType: type,
    subtype: payload.subtype ?? null,
    outcome: handled.outcome,
    detail: handled.detail ?? null,
    orderId: handled.orderId,
    transactionId: handled.transactionId ?? null,
    environment: payload.data?.environment ?? null,
    signedDate: payload.signedDate ?? null,
    received_at: deps.now().toISOString(),
  };
  await recordNotification(
    deps,
    { item, condition: 'attribute_not_exists(pk)', outcome: handled.outcome },
    WROTE_EFFECT,
    'app store: a handled notification could not be recorded',
    {
      notificationUUID: uuid,
      orderId: handled.orderId,
    },
  );
  return { notificationUUID: uuid, notificationType: type, outcome: handled.outcome, orderId: handled.orderId };
}

interface Handled {
  outcome: string;
  detail?: string;
  orderId: number | null;
  transactionId?: string;
}

/** Outcomes whose effect this delivery wrote (core/app-stores/complete.ts, refunds.ts). */
const WROTE_EFFECT = new Set(['credited', 'refunded', 'refund_reversed', 'barred', 'bar_lifted']);

/** The notification types that change an order here. */
const EFFECTFUL = ['ONE_TIME_CHARGE', 'REFUND', 'REVOKE', 'REFUND_REVERSED', 'CONSUMPTION_REQUEST'];

async function signedTransaction(deps: StoresDeps, payload: ResponseBodyV2DecodedPayload, type: string): Promise<JWSTransactionDecodedPayload> {
  const signed = payload.data?.signedTransactionInfo;
  if (!signed) throw storesError('appstore.notification_invalid', `signedPayload: a ${type} notification without data.signedTransactionInfo`);
  const transaction = await verifyTransaction(appStoreSettings(deps), signed, 'signedPayload.data.signedTransactionInfo');
  if (!transaction.transactionId) throw storesError('appstore.notification_invalid', 'signedPayload.data.signedTransactionInfo: no transactionId');
  return transaction;
}

/** A consumable bought: the order its link names completes, unless the purchase is not that order's. */
async function charge(deps: StoresDeps, transaction: JWSTransactionDecodedPayload, claim: Claim | undefined): Promise<Handled> {
  const transactionId = transaction.transactionId!;
  const order = transaction.appAccountToken ? await orderByStoreLink(deps, transaction.appAccountToken) : undefined;
  if (!order) return { outcome: 'unmatched', detail: 'the purchase names no order of this stage (appAccountToken)', orderId: null, transactionId };
  try {
    assertBuys(transaction, order);
    const { credited } = await completeByStorePurchase(deps, order, { store: 'apple', transactionId, productId: transaction.productId! }, { claim });
    return { outcome: credited ? 'credited' : 'already_credited', orderId: order.id, transactionId };
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'Conflict') throw error;
    await logError('app store: a purchase was not credited', { transactionId, orderId: order.id, reason: error.message });
    return { outcome: 'unmatched', detail: error.message, orderId: order.id, transactionId };
  }
}

/** CONSUMPTION_REQUEST: Apple is told how much of what the purchase credited was spent. */
async function consumption(
  deps: StoresDeps,
  payload: ResponseBodyV2DecodedPayload,
  transaction: JWSTransactionDecodedPayload,
  claim: Claim | undefined,
): Promise<Handled> {
  const transactionId = transaction.transactionId!;
  const order = claim?.orderId ? await findOrder(deps, claim.orderId) : undefined;
  const environment = (payload.data?.environment ?? transaction.environment) === 'Sandbox' ? 'Sandbox' : 'Production';
  const answer = await answerConsumptionRequest(deps, appStoreSettings(deps), environment, transactionId, order);
  return { ...answer, orderId: order?.id ?? null, transactionId };
}

/**
 * REFUND, REVOKE, REFUND_REVERSED: the order the store transaction paid gives its tickets back, or gets them
 * again; a purchase nothing credited yet is barred, or its bar lifted.
 */
async function refundEvent(
  deps: StoresDeps,
  transaction: JWSTransactionDecodedPayload,
  claim: Claim | undefined,
  type: string,
  uuid: string,
): Promise<Handled> {
  const transactionId = transaction.transactionId!;
  const reason = type === 'REFUND_REVERSED' ? null : type === 'REVOKE' ? 'revoked' : 'refunded';
  const effect = await refundByStore(deps, { store: 'apple', transactionId, claim, what: `transaction ${transactionId}` }, `apple:${uuid}`, reason);
  return { ...effect, transactionId };
}
