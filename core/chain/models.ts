import * as z from 'zod/mini';
import { example } from '../shared/examples.js';
import { answered } from '../shared/fields.js';

/** Vendor event `event_type`: 1 payment, 2 reward payout. */
export const VendorEventType = { payment: 1, rewardPayout: 2 } as const;

/**
 * The contract's vendor payment event record (vendor_pay_query's `data`; docs/api.md, "The compatibility
 * contract"), field names as the contract spells them
 * (`fromer`, `toer`). `amount` is decimal text of the token's base units; `cursor` is the event's position on
 * chain (its transaction and its index in it), the JSON-RPC event id.
 */
export const VendorPaymentEvent = z.lazy(() =>
  z.object({
    id: z.int(),
    bill_no: answered.billNo,
    amount: answered.baseUnits,
    fromer: answered.address,
    toer: answered.recipient,
    event_type: z.int(),
    cursor: z.object({ eventSeq: z.string().check(example('0')), txDigest: answered.txDigest }),
    created_at: answered.time,
    updated_at: answered.time,
  }),
);
export type VendorPaymentEvent = z.infer<typeof VendorPaymentEvent>;
