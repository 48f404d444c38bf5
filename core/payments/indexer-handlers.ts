import type { EventHandler } from '../chain/indexer.js';
import { canonicalType } from '../chain/names.js';
import { storePaymentEvent } from './chain-payments.js';
import type { PaymentsDeps } from './deps.js';
import { receiptFilter, receiptType } from './payment-kit.js';

/**
 * The handlers of payments: the stage's own payment event type -> storePaymentEvent; and with Payment Kit,
 * its receipt type -> storePaymentEvent for the receipts that pay one of the stage's projects (the receipt
 * stream is every Payment Kit user's; the others are passed over, unstored).
 */
export function paymentHandlers(deps: Pick<PaymentsDeps, 'chain' | 'db' | 'table'>): Record<string, EventHandler> {
  if (!deps.chain) return {};
  const { paymentEventType, paymentKit } = deps.chain.config;
  const store: EventHandler = async (handlerDeps, event) => {
    await storePaymentEvent(handlerDeps, event);
  };
  const handlers: Record<string, EventHandler> = {};
  if (paymentEventType) handlers[canonicalType(paymentEventType)] = store;
  if (paymentKit) {
    const ours = receiptFilter(deps);
    handlers[receiptType(paymentKit)] = async (handlerDeps, event) => {
      if (await ours(event)) await store(handlerDeps, event);
    };
  }
  return handlers;
}
