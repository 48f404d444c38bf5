import * as z from 'zod/mini';
import { email, httpUrl, requiredText, text } from '../shared/fields.js';

/** Merchant status (ours: docs/api.md, "The compatibility contract"): 0 pending review, 1 active, 2 suspended. */
export const MerchantStatus = { pending: 0, active: 1, suspended: 2 } as const;
export const merchantStatus = z.int().check(z.minimum(0), z.maximum(2));

export const SocialLink = z.object({ name: requiredText(50), url: httpUrl });

/** The contract's Merchant create payload. Only the name is required; lists default to empty. */
export const MerchantPayload = z.lazy(() =>
  z.object({
    merchant_name: requiredText(100),
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
    account_id: z.string(),
    merchant_email: z.string(),
    merchant_name: z.string(),
    logo_url: z.string(),
    description: z.string(),
    back_ground_image: z.array(z.string()),
    social_links: z.array(z.object({ name: z.string(), url: z.string() })),
    status: z.int(),
    create_time: z.string(),
    update_time: z.string(),
  }),
);
export type Merchant = z.infer<typeof Merchant>;

export const MerchantStatusView = z.lazy(() => z.object({ merchant_id: z.int(), status: z.int() }));

export const Credentials = z.lazy(() => z.object({ email, password: z.string().check(z.minLength(1), z.maxLength(256)) }));

export const LoginResult = z.lazy(() =>
  z.object({
    accessToken: z.string(),
    expiresAt: z.string(),
    account_id: z.string(),
    role: z.enum(['merchant', 'admin']),
  }),
);

export const ServerToken = z.lazy(() => z.object({ accessToken: z.string(), expiresAt: z.string(), merchant_id: z.int() }));

export const StoredFile = z.lazy(() => z.object({ path: z.string(), content_type: z.string(), size: z.int() }));
