import type { ConsumptionRequest } from '@apple/app-store-server-library';
import type { StoresDeps } from './deps.js';
import { OrderStatus } from '../payments/models.js';
import type { StoredOrder } from '../payments/order-keys.js';
import { balanceOf } from '../tickets/balances.js';
import { appleApi, callApple } from './apple-api.js';
import type { AppleEnvironment } from './apple.js';
import type { AppleSettings } from './apple-settings.js';

/**
 * CONSUMPTION_REQUEST (docs/api.md, "App Store and Google Play purchases"): a customer asked Apple to refund a
 * purchase, and Apple asks what the platform knows, so it can refuse refunds of goods already used. Answered with the
 * App Store Server API's Send Consumption Information (v2, `PUT /inApps/v2/transactions/consumption/{id}`; v1 is
 * deprecated), through Apple's client and the stage's API key.
 *
 * What v2 takes, and what we say:
 * - `customerConsented`: Apple refuses anything but true. Only the app can ask the customer, so the stage
 *   declares it (AppleConfig `consumptionConsent`: the app's terms obtain the consent); without it nothing is
 *   sent and the notification is recorded as `consumption_not_sent`.
 * - `deliveryStatus`: DELIVERED when the purchase paid an order (its tickets were credited); otherwise
 *   UNDELIVERED_OTHER.
 * - `consumptionPercentage` (milliunits, 0 to 100000): the part of the order's tickets a refund could not
 *   take back now, i.e. max(0, tickets - balance), rounded up (any spending shows) of the order's level (tickets are fungible: what is left in
 *   the balance may still be this purchase's). For an order already refunded, its recorded shortfall.
 * - `refundPreference`: GRANT_FULL when nothing was spent, DECLINE when all was, GRANT_PRORATED between
 *   (Apple wants a percentage above 0 with it).
 * - `sampleContentProvided`: false (tickets have no sample).
 * v2 has no account age or refund history fields (v1's accountTenure, lifetimeDollarsRefunded): not sent.
 */

export interface ConsumptionAnswer {
  outcome: 'consumption_sent' | 'consumption_not_sent';
  detail: string;
}

export async function answerConsumptionRequest(
  deps: StoresDeps,
  settings: AppleSettings,
  environment: AppleEnvironment,
  transactionId: string,
  order: StoredOrder | undefined,
): Promise<ConsumptionAnswer> {
  if (!settings.consumptionConsent) {
    return { outcome: 'consumption_not_sent', detail: 'the stage does not declare customer consent (AppleConfig consumptionConsent)' };
  }
  const request = await consumptionOf(deps, order);
  const client = await appleApi(deps, settings, environment);
  await callApple(`send consumption information for transaction ${transactionId}`, () => client.sendConsumptionInformation(transactionId, request));
  const percent = (request.consumptionPercentage ?? 0) / 1000;
  return { outcome: 'consumption_sent', detail: `${request.deliveryStatus}, ${percent}% consumed, ${request.refundPreference}` };
}

/** What the platform knows about the purchase that paid `order` (undefined: it paid none). */
export async function consumptionOf(deps: StoresDeps, order: StoredOrder | undefined): Promise<ConsumptionRequest> {
  const delivered = order !== undefined && (order.status === OrderStatus.paid || order.status === OrderStatus.refunded);
  if (!delivered || order.tickets <= 0) {
    return {
      customerConsented: true,
      deliveryStatus: delivered ? 'DELIVERED' : 'UNDELIVERED_OTHER',
      consumptionPercentage: 0,
      refundPreference: 'GRANT_FULL',
      sampleContentProvided: false,
    };
  }
  const spent =
    order.status === OrderStatus.refunded
      ? (order.refund_shortfall ?? 0)
      : Math.max(0, order.tickets - (await balanceOf(deps, { uid: order.user_id, projectName: order.project_name, level: order.level })));
  const consumptionPercentage = Math.min(100_000, Math.ceil((spent * 100_000) / order.tickets));
  const refundPreference = consumptionPercentage === 0 ? 'GRANT_FULL' : consumptionPercentage === 100_000 ? 'DECLINE' : 'GRANT_PRORATED';
  return { customerConsented: true, deliveryStatus: 'DELIVERED', consumptionPercentage, refundPreference, sampleContentProvided: false };
}
