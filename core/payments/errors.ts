import { errorCatalogue } from '../platform/errors.js';

/** The error codes of projects, orders paid on chain and stranded payments. */
export const paymentErrors = errorCatalogue({
  'project.not_found': ['NotFound', 'no project has this name'],
  'project.name_taken': ['Conflict', 'a project with this name exists already'],
  'project.nothing_to_change': ['InvalidInput', 'the update names no field to change'],
  'project.not_on_sale': ['NotFound', 'no project of this name is on sale'],
  'level.not_on_sale': ['NotFound', 'the project has no level of this number on sale'],
  'level.price_mismatch': ['Conflict', 'the order names another price (priceId) than the level has'],
  'order.amount_mismatch': ['Conflict', 'the order names another amount than the price of the level'],
  'order.not_found': ['NotFound', 'the caller has no order of this id'],
  'order.not_pending': ['Conflict', 'the order is not pending (paid, replaced or closed)'],
  'order.paid_on_chain': ['Conflict', 'the order has a payment on chain: complete it instead of replacing it'],
  'order.paid_by_other': ['Conflict', 'the order was paid by another transaction or purchase'],
  'user.no_wallet_account': ['NotFound', 'the user has no wallet account yet'],
  'payment.not_found': ['NotFound', 'the transaction holds no payment (or no payment of this bill)'],
  'payment.wrong_bill': ['Conflict', "the transaction pays no bill of the order"],
  'payment.coin_unverified': ['Conflict', 'the coin the transaction paid in could not be verified'],
  'payment.wrong_coin': ['Conflict', 'the transaction paid in another coin than the order'],
  'payment.wrong_amount': ['Conflict', 'the transaction paid another amount than the order costs'],
  'payment.wrong_recipient': ['Conflict', "the transaction paid another address than the project's"],
  'payment.order_matched_elsewhere': ['Conflict', "the order is matched to another payment; this one is kept as a stranded payment"],
  'payment.completed_other_order': ['Conflict', 'the transaction completed another order'],
  'stranded.not_found': ['NotFound', 'the project has no stranded payment of this transaction and event'],
  'stranded.refunded': ['Conflict', 'the stranded payment was refunded'],
  'stranded.credited': ['Conflict', 'the stranded payment was credited; it cannot be refunded too'],
  'stranded.no_order': ['Conflict', 'the stranded payment names no order to credit; refund it'],
  'stranded.order_gone': ['Conflict', 'the order the stranded payment names no longer exists'],
  'stranded.refund_used': ['Conflict', 'the refund transaction is recorded as the refund of another payment'],
  'stranded.refund_not_on_chain': ['NotFound', 'the chain has no transaction of this digest'],
  'stranded.refund_mismatch': ['Conflict', 'the refund transaction does not pay the payer the amount paid'],
});
export const paymentError = paymentErrors.fail;
