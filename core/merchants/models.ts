import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, email, httpUrl, intParam, pageCursor, requiredText, text } from '../shared/fields.js';
import { objectOf } from '../shared/records.js';

/** Merchant status (ours: docs/api.md, "The compatibility contract"): 0 pending review, 1 active, 2 suspended. */
export const MerchantStatus = { pending: 0, active: 1, suspended: 2 } as const;
export const merchantStatus = z.int().check(z.minimum(0), z.maximum(2));

export const SocialLink = z.object({ name: requiredText(50).check(example('discord')), url: httpUrl });

/** The contract's Merchant create payload. Only the name is required; lists default to empty. */
export const MerchantPayload = z.lazy(() =>
  z.object({
    merchant_name: requiredText(100).check(example(EXAMPLE.studioName)),
    logo_url: z._default(z.union([httpUrl, z.literal('')]), ''),
    description: z._default(text(2000), ''),
    back_ground_image: z._default(z.array(z.string().check(z.maxLength(2048))).check(z.maxLength(10)), []),
    social_links: z._default(z.array(SocialLink).check(z.maxLength(20)), []),
  }),
);
export type MerchantPayload = z.infer<typeof MerchantPayload>;

/** The merchant record in responses (the contract fixes none; these are ours). */
export const Merchant = z.lazy(() =>
  z.object({
    id: z.int(),
    account_id: answered.accountId,
    merchant_email: answered.email,
    merchant_name: z.string().check(example(EXAMPLE.studioName)),
    logo_url: answered.imageUrl,
    description: z.string(),
    back_ground_image: z.array(answered.imageUrl),
    social_links: z.array(z.object({ name: z.string(), url: answered.url })),
    status: z.int(),
    create_time: answered.time,
    update_time: answered.time,
    /** Added: the reason an admin gave with the last status change, and when it was made; absent when that change gave none. */
    status_reason: z.optional(z.string()),
    status_changed_at: z.optional(answered.time),
  }),
);
export type Merchant = z.infer<typeof Merchant>;

/**
 * A merchant's status. Added: with the last status change's reason, when it gave one: the reason, when, and (to
 * admins) the admin account that made it; absent otherwise, so the answer is `{merchant_id, status}` as before.
 */
export const MerchantStatusView = z.lazy(() =>
  z.object({
    merchant_id: z.int(),
    status: z.int(),
    status_reason: z.optional(z.string()),
    status_changed_at: z.optional(answered.time),
    status_changed_by: z.optional(answered.accountId),
  }),
);
export type MerchantStatusView = z.infer<typeof MerchantStatusView>;

/** merchantStatus (set): the merchant, its new status, and optionally why (added: 1-500 characters once trimmed). */
export const MerchantStatusBody = z.lazy(() =>
  z.object({ merchant_id: z.int().check(z.positive()), status: merchantStatus, reason: z.optional(requiredText(500)) }),
);

/** The merchants an admin reviews: those of one status (pending review by default), a page at a time. */
export const MerchantReviewQuery = z.lazy(() =>
  z.object({
    status: z._default(intParam({ min: 0, max: 2 }), MerchantStatus.pending),
    limit: z._default(intParam({ min: 1, max: 100 }), 20),
    cursor: z.optional(pageCursor),
  }),
);
export type MerchantReviewQuery = z.infer<typeof MerchantReviewQuery>;

/**
 * A merchant as an admin's review list shows it: the record, and its last status change: the reason (null when it
 * gave none), when and by which admin account (null for changes recorded before these were kept).
 */
export const ReviewedMerchant = z.lazy(() =>
  z.extend(z.omit(objectOf(Merchant), { status_reason: true, status_changed_at: true }), {
    status_reason: z.nullable(z.string()),
    status_changed_at: z.nullable(answered.time),
    /** The admin account that made the last status change. */
    status_changed_by: z.nullable(answered.accountId),
  }),
);
export type ReviewedMerchant = z.infer<typeof ReviewedMerchant>;

/** A page of merchants of one status, newest first: `next` the cursor of the page after it, null on the last. */
export const MerchantReviewPage = z.lazy(() => z.object({ items: z.array(ReviewedMerchant), next: z.nullable(answered.cursor) }));
export type MerchantReviewPage = z.infer<typeof MerchantReviewPage>;

export const Credentials = z.lazy(() => z.object({ email, password: z.string().check(z.minLength(1), z.maxLength(256)) }));

export const LoginResult = z.lazy(() =>
  z.object({
    accessToken: answered.accessToken,
    expiresAt: answered.time,
    account_id: answered.accountId,
    role: z.enum(['merchant', 'admin']),
  }),
);

export const ServerToken = z.lazy(() => z.object({ accessToken: answered.accessToken, expiresAt: answered.time, merchant_id: z.int() }));

export const StoredFile = z.lazy(() => z.object({ path: z.string(), content_type: z.string(), size: z.int() }));
