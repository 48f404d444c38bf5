import { allow, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { PayOrder } from '../../core/payments/models.js';
import { AppleVerifyBody } from '../../core/stores/models.js';
import { platformToken } from './errors.js';

/** The third-pay group (API.md "third_pay", flow 4): App Store and Google Play purchases. */
export const thirdPayRoutes = defineGroup('third-pay', 'main', {
  'app-verify-transaction': {
    name: 'app-verify-transaction',
    method: 'POST',
    path: '/pay/apple/verify',
    auth: allow(['platform'], [owns.record('body.orderId', 'pay order', 'user_id')], { movesValue: true }),
    summary: 'Complete an order with an App Store purchase',
    description:
      "The iOS app buys the order's level's App Store product with the order's `app_account_token` as the purchase's appAccountToken, then sends the signed transaction StoreKit gave it. It is verified with Apple's library against the stage's root certificates (chain, signature, bundle id, environment), matched to the order (its link, its App Store product, one consumable, not revoked), and the order turns paid (`tx_type` 2) with its tickets credited, once: the same transaction again answers the same, a transaction that paid another order is 409. Answers the order.",
    body: AppleVerifyBody,
    status: 200,
    envelope: 'data',
    response: PayOrder,
    errors: {
      400: 'a field is missing or malformed, or the signed transaction is not verified: not Apple-signed to the stage root, another app, or an environment the stage does not take',
      ...platformToken,
      404: 'no such order of the caller',
      409: "the purchase is not this order's (link, product, quantity, type), was revoked, paid another order; or the order is not pending",
      503: 'App Store purchases are not configured on this stage, or Apple could not be asked to check the certificates now',
    },
  },
});
