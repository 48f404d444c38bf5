import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered } from '../shared/fields.js';
import { nullByDefault } from '../shared/records.js';

/** The App Store and Google Play operations' bodies (docs/api.md, "App Store and Google Play purchases"). */

/** What the reference shows (core/shared/examples.ts): a StoreKit signed transaction (shortened), Apple's test token, a Play notification. */
const SIGNED_TRANSACTION =
  'eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCc3pDQ0FWbWciXX0.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDg0NzM2MTIzNCIsInByb2R1Y3RJZCI6ImFyZW5hLnRpY2tldHMuMTAwIn0.wP6lTRpmyYhlw6MSALcu1k3eshLY6kxI8rU4m-san5M';
const TEST_NOTIFICATION_TOKEN = 'ce3af791-365e-4c60-841b-1674b43c1609_1773480600123';
const PLAY_NOTIFICATION =
  'eyJwYWNrYWdlTmFtZSI6ImNvbS5leGFtcGxlLmFyZW5hIiwib25lVGltZVByb2R1Y3ROb3RpZmljYXRpb24iOnsibm90aWZpY2F0aW9uVHlwZSI6MSwicHVyY2hhc2VUb2tlbiI6Im9wYXF1ZS10b2tlbi11cDdIIiwic2t1IjoiYXJlbmEudGlja2V0cy4xMDAifX0=';

const orderId = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));

/**
 * A JWS in compact form as StoreKit and the App Store write it: three Base64url parts. App Store transactions
 * are a few kilobytes (three certificates in x5c); 32 KiB bounds them generously.
 */
export const compactJws = z
  .string()
  .check(
    z.maxLength(32_768),
    z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'expected a JWS in compact form (three Base64url parts)'),
    example(SIGNED_TRANSACTION),
  );

/** An App Store transaction id: decimal digits. */
const appleTransactionId = z.string().check(z.regex(/^\d{1,32}$/, 'expected an App Store transaction id (digits)'), example('2000000847361234'));

/** The rule between the purchase's two fields, stated on each (a generated client keeps a field's description). */
const exactlyOne = z.describe('Give signedTransaction or transactionId, exactly one of them.');

/**
 * app-verify-transaction: the caller's order, and its purchase: the signed transaction StoreKit gave the app,
 * or its transaction id (read from the App Store Server API), exactly one of them.
 */
export const AppleVerifyBody = z.lazy(() =>
  z
    .object({
      orderId,
      signedTransaction: z.optional(compactJws.check(exactlyOne)),
      transactionId: z.optional(appleTransactionId.check(exactlyOne)),
    })
    .check(
      z.refine((body) => (body.signedTransaction === undefined) !== (body.transactionId === undefined), 'give signedTransaction or transactionId, exactly one'),
    ),
);

/** app_asdn-v2-callback: what the App Store POSTs, an App Store Server Notification v2. */
export const AppleNotificationBody = z.lazy(() => z.object({ signedPayload: compactJws }));

/** What a notification did (the App Store only reads the status; the body is for logs and tests). */
export const NotificationAnswer = z.lazy(() =>
  z.object({
    notificationUUID: answered.uuid,
    notificationType: z.string().check(example('ONE_TIME_CHARGE')),
    outcome: z.string(),
    orderId: z.nullable(z.int()),
  }),
);

/** app_trigger-test-notification: which environment to ask (default the stage's), or the token of an earlier request. */
export const TestNotificationBody = z.lazy(() =>
  z.object({
    environment: z.optional(z.enum(['Production', 'Sandbox'])),
    testNotificationToken: z.optional(
      z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9_-]+$/, 'expected the token Apple answered'), example(TEST_NOTIFICATION_TOKEN)),
    ),
  }),
);

/** What Apple reports of a test notification, and whether this stage received it. */
export const TestNotificationAnswer = z.lazy(() =>
  z.object({
    testNotificationToken: z.string().check(example(TEST_NOTIFICATION_TOKEN)),
    environment: z.enum(['Production', 'Sandbox']),
    status: z.enum(['pending', 'sent', 'failed']),
    sendAttempts: z.array(z.object({ attemptDate: z.nullable(z.int()), sendAttemptResult: z.string() })),
    notificationUUID: z.nullable(answered.uuid),
    received: z.boolean(),
  }),
);

/**
 * google_callback: a Pub/Sub push (the push format: `message.data` is the Base64 of a Play real-time developer
 * notification). Only what is read is declared; Pub/Sub's other fields (message_id, publish_time, attributes)
 * are dropped. Real notifications are well under 4 KiB.
 */
export const GooglePushBody = z.lazy(() =>
  z.object({
    message: z.object({
      data: z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9+/=_-]*$/, 'expected Base64'), example(PLAY_NOTIFICATION)),
      messageId: z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_-]+$/, 'expected a Pub/Sub message id'), example('13546782991048576')),
      publishTime: z.optional(z.string().check(z.maxLength(40), example(EXAMPLE.time))),
    }),
    subscription: z.string().check(z.maxLength(300), example('projects/demo-arena/subscriptions/play-notifications')),
  }),
);

/** What a push did (Pub/Sub only reads the status; the body is for logs and tests). */
export const GooglePushAnswer = z.lazy(() =>
  z.object({
    messageId: z.string().check(example('13546782991048576')),
    notification: z.string(),
    outcome: z.string(),
    orderId: z.nullable(z.int()),
  }),
);

/**
 * "an App Store notification seen" (noteKey, core/app-stores/apple-notifications.ts), as stored: the order it was
 * about, if any; what a redelivery is answered from.
 */
export const SeenNotification = z.object({ orderId: nullByDefault(z.int()) });

/**
 * "a Google Play message" (messageKey, core/app-stores/google-notifications.ts), as stored: once handled, its outcome,
 * what notification it was and the order it was about (what a redelivery is answered from); before, while its
 * handling fails the same permanent way, only how many times it has. A poison message, acknowledged, has both.
 */
export const StoredGoogleMessage = z.union([
  z.object({ outcome: z.string(), notification: z.string(), orderId: nullByDefault(z.int()), failures: z.optional(z.int()) }),
  z.object({ failures: z.int() }),
]);
