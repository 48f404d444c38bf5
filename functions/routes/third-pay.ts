import { adminOnly, allow, open, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { PayOrder } from '../../core/payments/models.js';
import {
  AppleNotificationBody,
  AppleVerifyBody,
  GooglePushAnswer,
  GooglePushBody,
  NotificationAnswer,
  TestNotificationAnswer,
  TestNotificationBody,
} from '../../core/app-stores/models.js';
import { merchantToken, platformToken } from './errors.js';

/** The third-pay group: App Store and Google Play purchases (docs/api.md, "App Store and Google Play purchases"). */
export const thirdPayRoutes = defineGroup('third-pay', 'main', {
  'app-verify-transaction': {
    name: 'app-verify-transaction',
    method: 'POST',
    path: '/pay/apple/verify',
    auth: allow(['platform'], [owns.record('body.orderId', 'pay order', 'user_id')], { movesValue: true }),
    summary: 'Complete an order with an App Store purchase',
    description:
      "The iOS app buys the order's level's App Store product with the order's `app_account_token` as the purchase's appAccountToken, then sends the signed transaction StoreKit gave it (`signedTransaction`), or its `transactionId`, which is read from the App Store Server API (Production first, then Sandbox when the stage takes it). The transaction is verified with Apple's library against the stage's root certificates (chain, signature, bundle id, environment), matched to the order (its link, its App Store product, one consumable, not revoked), and the order turns paid (`tx_type` 2) with its tickets credited, once: the same transaction again answers the order as it is now (refunded since: status 3), a transaction that paid another order is 409, and one the store refunded or revoked before it was credited is 409 and credits nothing. Answers the order.",
    body: AppleVerifyBody,
    status: 200,
    envelope: 'data',
    response: PayOrder,
    errors: {
      400: 'a field is missing or malformed, or the signed transaction is not verified: not Apple-signed to the stage root, another app, or an environment the stage does not take',
      ...platformToken,
      404: 'no such order of the caller, or no App Store environment the stage takes knows the transaction id',
      409: "the purchase is not this order's (link, product, quantity, type), was revoked, paid another order, or was refunded or revoked by the store before it was credited; or the order is not pending",
      503: 'App Store purchases (or, for a transaction id, the App Store Server API key) are not configured on this stage, or Apple could not be reached',
    },
    codes: ['appstore.environment_refused', 'appstore.jws_invalid', 'appstore.unavailable', 'appstore.unconfigured', 'order.not_found', 'order.paid_by_other', 'purchase.not_consumable', 'purchase.not_for_order', 'purchase.not_found', 'purchase.order_without_product', 'purchase.paid_other_order', 'purchase.quantity_not_one', 'purchase.revoked', 'purchase.transaction_incomplete', 'purchase.wrong_product'],
  },
  'app_asdn-v2-callback': {
    name: 'app_asdn-v2-callback',
    method: 'POST',
    path: '/pay/apple/notifications',
    auth: open,
    summary: 'App Store Server Notifications v2',
    description:
      "The URL to give App Store Connect (App Information, App Store Server Notifications, Version 2). No token: the body's `signedPayload` is verified to the stage's Apple root like a transaction, and anything unverifiable is 400, so Apple sends it again later. ONE_TIME_CHARGE completes the order the purchase's appAccountToken names (whichever of it and app-verify-transaction comes first credits); REFUND and REVOKE take the order's tickets back (never below zero; the shortfall is recorded, the order turns 3); REFUND_REVERSED gives them back; a REFUND or REVOKE of a purchase nothing credited yet bars it (`barred`), so neither the app's verification nor a later ONE_TIME_CHARGE credits it, and REFUND_REVERSED lifts the bar (`bar_lifted`); CONSUMPTION_REQUEST is answered with Send Consumption Information (how much of the purchase's tickets were spent) when the stage declares the customers' consent; other types are recorded. Each notification counts once (by notificationUUID): a repeat answers `duplicate` and changes nothing. A purchase no order takes is recorded as `unmatched` and acknowledged.",
    body: AppleNotificationBody,
    status: 200,
    envelope: 'data',
    response: NotificationAnswer,
    errors: {
      400: 'the body is malformed, or the signed payload (or its transaction) is not verified: not Apple-signed to the stage root, another app, or an environment the stage does not take',
      409: "the order's balance kept changing during a refund; Apple sends it again",
      503: "App Store purchases are not configured on this stage, Apple could not be asked to check the certificates now, or a refund request's consumption information could not be sent (no App Store Server API key, or Apple failing); Apple sends it again",
    },
    codes: ['appstore.environment_refused', 'appstore.jws_invalid', 'appstore.notification_invalid', 'appstore.unavailable', 'appstore.unconfigured', 'data.changed_concurrently', 'order.not_paid'],
  },
  'app_trigger-test-notification': {
    name: 'app_trigger-test-notification',
    method: 'POST',
    path: '/pay/apple/test-notification',
    auth: adminOnly("admins check that the App Store reaches the stage's notification URL"),
    summary: 'Ask the App Store for a test notification and report its delivery (admins)',
    description:
      "Checks App Store Connect's notification URL of the stage: asks Apple for a test notification (App Store Server API requestTestNotification, with the stage's API key) and reports its delivery status (getTestNotificationStatus; Apple sends it asynchronously, so the answer may still be `pending`: ask again with the answered `testNotificationToken`, which only reports). `status`: pending, sent (an attempt succeeded) or failed (attempts, none successful); `sendAttempts` as Apple reports them; `received`: whether this stage recorded the notification (by its notificationUUID), which tells the right URL from another stage's. `environment` defaults to the stage's.",
    body: TestNotificationBody,
    status: 200,
    envelope: 'data',
    response: TestNotificationAnswer,
    errors: {
      400: 'environment or testNotificationToken malformed, or an environment the stage does not take',
      ...merchantToken,
      403: 'not an admin account',
      404: 'Apple knows no test notification with that token',
      503: 'App Store purchases or the App Store Server API key are not configured on this stage, or Apple could not be reached',
    },
    codes: ['appstore.environment_refused', 'appstore.test_notification_not_found', 'appstore.unavailable', 'appstore.unconfigured'],
  },
  google_callback: {
    name: 'google_callback',
    method: 'POST',
    path: '/pay/google/notifications',
    auth: open,
    summary: 'Google Play real-time developer notifications (Pub/Sub push)',
    description:
      "The push endpoint of the stage's Pub/Sub subscription to the app's Play notifications topic, with authentication on (a service account and an audience). No platform token: the push's `Authorization: Bearer` OIDC token is verified against Google's keys (issuer https://accounts.google.com, the stage's audience, `email_verified`, `email` the stage's push service account), else 401. `message.data` is the Base64 of a developer notification. A one-time purchase is read back from the Play Developer API, matched to the order its obfuscatedExternalAccountId names (its Google Play product, quantity 1), credited once (`tx_type` 3) and consumed (which acknowledges it); a purchase no order takes is recorded as `unmatched` and left unconsumed, so Google refunds it. A voided one-time purchase takes the order's tickets back (never below zero; the shortfall recorded, the order turns 3); one voided before it was credited is barred (`barred`), so its purchase message credits nothing. Test and other notifications are recorded. Each message counts once (by messageId): a repeat answers `duplicate`. Non-2xx makes Pub/Sub deliver again; a message that fails the same permanent way `poisonAttempts` times (default 5) is recorded as `poison` and acknowledged.",
    body: GooglePushBody,
    status: 200,
    envelope: 'data',
    response: GooglePushAnswer,
    errors: {
      400: "the push body is malformed, or its notification is not readable or not this stage's app (counted toward poison)",
      401: "no push OIDC token, or one not Google-signed, expired, for another audience, or not from the stage's verified push service account",
      409: "another delivery of the message was handled meanwhile, or the order's balance kept changing during a refund; Pub/Sub delivers it again",
      503: "Google Play purchases (or the Play Developer API key) are not configured on this stage, or Google's keys or API could not be reached",
    },
    codes: ['data.changed_concurrently', 'googleplay.delivery_concurrent', 'googleplay.notification_invalid', 'googleplay.push_sender_refused', 'googleplay.push_token_missing', 'googleplay.unavailable', 'googleplay.unconfigured', 'id_token.expired', 'id_token.invalid', 'order.not_paid'],
  },
});
