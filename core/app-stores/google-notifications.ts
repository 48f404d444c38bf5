import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Url } from '../platform/digest.js';
import { conditionHeld, isConditionalFailure } from '../platform/conditional-failure.js';
import { bearerTokenOf } from '../platform/authorization-header.js';
import type * as z from 'zod/mini';
import { createIdTokenVerifier, type IdTokenVerifier } from '../identity/id-tokens.js';
import { readItems } from '../platform/batch.js';
import type { StoresDeps } from './deps.js';
import { DomainError } from '../platform/errors.js';
import { storesError } from './errors.js';
import { logError } from '../platform/log.js';
import { orderByStoreLink } from '../payments/orders.js';
import type { StoredOrder } from '../payments/order-keys.js';
import { completeByStorePurchase } from './complete.js';
import { messageKey, storeTxKey } from './keys.js';
import { claimOf, type Claim } from './purchase-claims.js';
import { consumeProductPurchase, getProductPurchase, type ProductPurchase } from './google-play.js';
import type { GoogleSettings } from './google-settings.js';
import { type GooglePushAnswer, type GooglePushBody, StoredGoogleMessage } from './models.js';
import { recordNotification } from './notification-records.js';
import { refundByStore } from './refunds.js';

/**
 * google_callback (docs/api.md, "Google Play"): Google Play real-time developer notifications, pushed by Pub/Sub. A
 * 2xx acknowledges the message; anything else makes Pub/Sub deliver it again (with the subscription's back-off,
 * for up to its retention). So:
 * - the push's `Authorization: Bearer` OIDC token is verified with jose against Google's keys (issuer
 *   https://accounts.google.com, the stage's push audience, `email_verified`, `email` the stage's push
 *   service account): else 401, nothing written;
 * - a message is handled once by its messageId (pk `GOOGLEMSG#<messageId>`): delivered again, it answers
 *   `duplicate` and changes nothing; racing deliveries are safe because each effect is itself once-only;
 * - a purchase (oneTimeProductNotification PURCHASED) is read back from the Play Developer API (what the
 *   notification says is only a pointer), matched to the order its obfuscatedExternalAccountId names like
 *   an App Store purchase (the order's Google product, quantity 1, purchased), credited once (`tx_type` 3;
 *   the claim is `STORETX#google#<sha256 of the purchase token>`), then consumed, which acknowledges it. A
 *   purchase no order takes is recorded as `unmatched` and NOT consumed: Google refunds it after three days;
 * - a voidedPurchaseNotification of a one-time product takes the tickets back (core/app-stores/refunds.ts); one
 *   that comes before the purchase was credited bars it, so its purchase message credits nothing later;
 * - testNotification, subscription and other notifications are recorded;
 * - failures: Google's API or our table failing before the credit or refund answers 503, written nowhere,
 *   and Pub/Sub redelivers; the consume failing after the credit answers 503 with the credit kept (the
 *   redelivery finds it credited and consumes); the table failing on the message's record after the effect
 *   answers the outcome and logs the missing record (the effect is once-only). A
 *   message that fails the same permanent way (malformed data, another app) is counted on its record; the
 *   `poisonAttempts`-th time (default 5) it is recorded as `poison` and acknowledged, so it stops. That count
 *   is the one thing a refused push writes (docs/security.md), and only for an authenticated push.
 */

type Answer = z.infer<typeof GooglePushAnswer>;

interface Handled {
  notification: string;
  outcome: string;
  detail?: string;
  orderId: number | null;
  purchaseToken?: string;
}

/** Outcomes whose effect this delivery wrote (core/app-stores/complete.ts, refunds.ts). */
const WROTE_EFFECT = new Set(['credited', 'refunded', 'barred']);

/** The claim id of a purchase: its token, hashed (tokens are long and opaque; voided notifications carry them too). */
export const purchaseClaimId = (purchaseToken: string) => sha256Url(purchaseToken);

/** The stage's settings, or 503 naming the missing setting. */
export function googlePlaySettings(deps: Pick<StoresDeps, 'googlePlay'>): GoogleSettings {
  if (!deps.googlePlay) throw storesError('googleplay.unconfigured', 'Google Play purchases are not configured on this stage (the GoogleConfig setting)');
  return deps.googlePlay;
}

export async function receiveGooglePush(deps: StoresDeps, authorization: string | undefined, input: z.infer<typeof GooglePushBody>): Promise<Answer> {
  const settings = googlePlaySettings(deps);
  await verifyPushToken(settings, authorization);
  const { messageId, data } = input.message;
  // The message's record and, for a purchase or a voided one, the purchase's claim: read together.
  const notification = decode(data);
  const token = notification && purchaseTokenOf(notification);
  const [record, claim] = await readItems(deps, [messageKey(messageId), ...(token ? [storeTxKey('google', purchaseClaimId(token))] : [])]);
  const stored = record && StoredGoogleMessage.parse(record);
  if (stored && 'outcome' in stored) return { messageId, notification: stored.notification, outcome: 'duplicate', orderId: stored.orderId };

  let handled: Handled;
  try {
    handled = await handle(deps, settings, notification, claimOf(claim));
  } catch (error) {
    // Only what will fail the same way again counts (400); Google or the table failing (503), a refund racing
    // spending (409) are retried by Pub/Sub without counting.
    if (!(error instanceof DomainError) || error.kind !== 'InvalidInput') throw error;
    return countFailure(deps, settings, messageId, error);
  }
  const item = {
    ...messageKey(messageId),
    type: 'google_notification',
    notification: handled.notification,
    outcome: handled.outcome,
    detail: handled.detail ?? null,
    orderId: handled.orderId,
    purchase_claim: handled.purchaseToken ? purchaseClaimId(handled.purchaseToken) : null,
    subscription: input.subscription,
    received_at: deps.now().toISOString(),
  };
  await recordNotification(
    deps,
    { item, condition: 'attribute_not_exists(outcome)', outcome: handled.outcome },
    WROTE_EFFECT,
    'google play: a handled message could not be recorded',
    {
      messageId,
      orderId: handled.orderId,
    },
  );
  return { messageId, notification: handled.notification, outcome: handled.outcome, orderId: handled.orderId };
}

const verifiers = new WeakMap<GoogleSettings, IdTokenVerifier>();

/** The push's OIDC token: Google-signed, for the stage's audience, from the stage's push service account. */
async function verifyPushToken(settings: GoogleSettings, authorization: string | undefined): Promise<void> {
  const token = bearerTokenOf(authorization);
  if (!token) throw storesError('googleplay.push_token_missing', 'Authorization: a Pub/Sub push OIDC token (Bearer) is required');
  let verifier = verifiers.get(settings);
  if (!verifier) {
    const issuer = { name: 'pubsub', issuer: 'https://accounts.google.com', jwksUri: settings.googleCerts, clientIds: [settings.pushAudience] };
    verifiers.set(settings, (verifier = createIdTokenVerifier([issuer], { field: 'Authorization' })));
  }
  const identity = await verifier.verify(token);
  if (identity.email !== settings.pushServiceAccount)
    throw storesError('googleplay.push_sender_refused', "Authorization: not the stage's push service account");
  if (identity.email_verified !== true) throw storesError('googleplay.push_sender_refused', 'Authorization: the service account email is not verified');
}

/** A permanent failure, counted; the last allowed one is acknowledged as poison. */
async function countFailure(deps: StoresDeps, settings: GoogleSettings, messageId: string, error: DomainError): Promise<Answer> {
  const out = await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: messageKey(messageId),
        UpdateExpression: 'SET #type = :type, last_failure = :why, updated_at = :now ADD failures :one',
        ConditionExpression: 'attribute_not_exists(outcome)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'google_notification', ':why': error.message, ':now': deps.now().toISOString(), ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((failure: unknown) => {
      if (isConditionalFailure(failure)) throw storesError('googleplay.delivery_concurrent', 'message.messageId: handled meanwhile by another delivery');
      throw failure;
    });
  const failures = (out.Attributes && StoredGoogleMessage.parse(out.Attributes).failures) ?? 1;
  if (failures < settings.poisonAttempts) throw error;
  await logError('google play: poison message acknowledged', { messageId, failures, reason: error.message });
  await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: messageKey(messageId),
        UpdateExpression: 'SET outcome = :poison, notification = :unknown, detail = :why, orderId = :none',
        ConditionExpression: 'attribute_not_exists(outcome)',
        ExpressionAttributeValues: { ':poison': 'poison', ':unknown': 'unreadable', ':why': error.message, ':none': null },
      }),
    ),
  );
  return { messageId, notification: 'unreadable', outcome: 'poison', orderId: null };
}

/** A developer notification, as Play writes it (times are JSON strings). */
interface DeveloperNotification {
  packageName?: unknown;
  oneTimeProductNotification?: { notificationType?: unknown; purchaseToken?: unknown; sku?: unknown };
  voidedPurchaseNotification?: { purchaseToken?: unknown; orderId?: unknown; productType?: unknown };
  subscriptionNotification?: unknown;
  testNotification?: unknown;
}

/** The purchase token a notification is about, if any (the full checks come in handle). */
function purchaseTokenOf(notification: DeveloperNotification): string | undefined {
  const token = notification.oneTimeProductNotification?.purchaseToken ?? notification.voidedPurchaseNotification?.purchaseToken;
  return typeof token === 'string' && token.length > 0 && token.length <= 1000 ? token : undefined;
}

async function handle(deps: StoresDeps, settings: GoogleSettings, notification: DeveloperNotification | undefined, claim: Claim | undefined): Promise<Handled> {
  if (!notification) throw storesError('googleplay.notification_invalid', 'message.data: not the Base64 of a developer notification (JSON object)');
  if (notification.packageName !== settings.packageName)
    throw storesError('googleplay.notification_invalid', `message.data.packageName: ${JSON.stringify(notification.packageName)} is not this stage's app`);
  const oneTime = notification.oneTimeProductNotification;
  if (oneTime) {
    const token = text(oneTime.purchaseToken, 'oneTimeProductNotification.purchaseToken');
    const sku = text(oneTime.sku, 'oneTimeProductNotification.sku');
    // 1 ONE_TIME_PRODUCT_PURCHASED; 2 ONE_TIME_PRODUCT_CANCELED (a pending purchase abandoned): nothing to do.
    if (oneTime.notificationType !== 1)
      return { notification: `one_time_product:${String(oneTime.notificationType)}`, outcome: 'recorded', orderId: null, purchaseToken: token };
    return purchased(deps, settings, token, sku, claim);
  }
  const voided = notification.voidedPurchaseNotification;
  if (voided) {
    const token = text(voided.purchaseToken, 'voidedPurchaseNotification.purchaseToken');
    // productType 1 is a subscription: none is sold here.
    if (voided.productType === 1) return { notification: 'voided_purchase', outcome: 'recorded', orderId: null, purchaseToken: token };
    return voidedPurchase(deps, token, claim);
  }
  if (notification.testNotification) return { notification: 'test', outcome: 'recorded', orderId: null };
  if (notification.subscriptionNotification) return { notification: 'subscription', outcome: 'recorded', orderId: null };
  return { notification: 'other', outcome: 'recorded', orderId: null };
}

/** The developer notification in a message's data; undefined when it is not Base64 of a JSON object. */
function decode(data: string): DeveloperNotification | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as DeveloperNotification) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1000)
    throw storesError('googleplay.notification_invalid', `message.data.${field}: expected a string`);
  return value;
}

/** A one-time product bought: read back from Google, credited once to the order it names, then consumed. */
async function purchased(deps: StoresDeps, settings: GoogleSettings, token: string, sku: string, claim: Claim | undefined): Promise<Handled> {
  const base = { notification: 'one_time_product:purchased', purchaseToken: token };
  const purchase = await getProductPurchase(settings, sku, token);
  if (!purchase) return { ...base, outcome: 'unmatched', detail: 'Google knows no such purchase', orderId: null };
  // purchaseState: 0 purchased, 1 canceled, 2 pending (paid later, or never).
  if (purchase.purchaseState === 2) return { ...base, outcome: 'pending', orderId: null };
  if (purchase.purchaseState !== 0)
    return { ...base, outcome: 'unmatched', detail: `the purchase is not purchased (purchaseState ${String(purchase.purchaseState)})`, orderId: null };
  const link = purchase.obfuscatedExternalAccountId;
  const order = link ? await orderByStoreLink(deps, link) : undefined;
  if (!order) return { ...base, outcome: 'unmatched', detail: 'the purchase names no order of this stage (obfuscatedExternalAccountId)', orderId: null };
  try {
    assertGoogleBuys(purchase, sku, order);
    const { credited } = await completeByStorePurchase(deps, order, { store: 'google', transactionId: purchaseClaimId(token), productId: sku }, { claim });
    await consume(settings, sku, token, purchase);
    return { ...base, outcome: credited ? 'credited' : 'already_credited', orderId: order.id };
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'Conflict') throw error;
    await logError('google play: a purchase was not credited', { orderId: order.id, reason: error.message });
    return { ...base, outcome: 'unmatched', detail: error.message, orderId: order.id };
  }
}

/** The purchase is the order's: its product, one unit. */
function assertGoogleBuys(purchase: ProductPurchase, sku: string, order: StoredOrder): void {
  if (order.google_product_id !== sku)
    throw storesError('purchase.wrong_product', `purchase: it bought ${sku}; order ${order.id} is for ${order.google_product_id ?? 'no Google Play product'}`);
  const quantity = purchase.quantity ?? 1;
  if (quantity !== 1) throw storesError('purchase.quantity_not_one', `purchase: it bought ${quantity} at once; an order is one purchase of quantity 1`);
}

/** Consumes the purchase unless it is already; a consume that fails is checked against the purchase as it is then. */
async function consume(settings: GoogleSettings, sku: string, token: string, purchase: ProductPurchase): Promise<void> {
  if (purchase.consumptionState === 1) return;
  try {
    await consumeProductPurchase(settings, sku, token);
  } catch (error) {
    // Racing deliveries may both consume; the loser's error is fine when the purchase is consumed now.
    if ((await getProductPurchase(settings, sku, token))?.consumptionState === 1) return;
    throw error;
  }
}

/** A one-time purchase voided (refunded, charged back): the order it paid gives its tickets back, or it is barred. */
async function voidedPurchase(deps: StoresDeps, token: string, claim: Claim | undefined): Promise<Handled> {
  const claimId = purchaseClaimId(token);
  const effect = await refundByStore(deps, { store: 'google', transactionId: claimId, claim, what: 'this purchase' }, `google:${claimId}`, 'voided');
  return { notification: 'voided_purchase', purchaseToken: token, ...effect };
}
