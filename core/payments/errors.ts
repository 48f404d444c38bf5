import { errorCatalogue } from '../platform/errors.js';

/** The error codes of projects, orders paid on chain and stranded payments. */
export const paymentErrors = errorCatalogue({
  /** no project has this name */
  'project.not_found': 'NotFound',
  /** a project with this name exists already */
  'project.name_taken': 'Conflict',
  /** the update names no field to change */
  'project.nothing_to_change': 'InvalidInput',
  /** no project of this name is on sale */
  'project.not_on_sale': 'NotFound',
  /** the project has no level of this number on sale */
  'level.not_on_sale': 'NotFound',
  /** the order names another price (priceId) than the level has */
  'level.price_mismatch': 'Conflict',
  /** the order names another amount than the price of the level */
  'order.amount_mismatch': 'Conflict',
  /** the caller has no order of this id */
  'order.not_found': 'NotFound',
  /** the order is not pending (paid, replaced or closed) */
  'order.not_pending': 'Conflict',
  /** the order has a payment on chain: complete it instead of replacing it */
  'order.paid_on_chain': 'Conflict',
  /** the order was paid by another transaction or purchase */
  'order.paid_by_other': 'Conflict',
  /** the user has no wallet account yet */
  'user.no_wallet_account': 'NotFound',
  /** the transaction holds no payment (or no payment of this bill) */
  'payment.not_found': 'NotFound',
  /** the transaction pays no bill of the order */
  'payment.wrong_bill': 'Conflict',
  /** the coin the transaction paid in could not be verified */
  'payment.coin_unverified': 'Conflict',
  /** the transaction paid in another coin than the order */
  'payment.wrong_coin': 'Conflict',
  /** the transaction paid another amount than the order costs */
  'payment.wrong_amount': 'Conflict',
  /** the transaction paid another address than the project's */
  'payment.wrong_recipient': 'Conflict',
  /** the order is matched to another payment; this one is kept as a stranded payment */
  'payment.order_matched_elsewhere': 'Conflict',
  /** the transaction completed another order */
  'payment.completed_other_order': 'Conflict',
  /** the project has no stranded payment of this transaction and event */
  'stranded.not_found': 'NotFound',
  /** the stranded payment was refunded */
  'stranded.refunded': 'Conflict',
  /** the stranded payment was credited; it cannot be refunded too */
  'stranded.credited': 'Conflict',
  /** the stranded payment names no order to credit; refund it */
  'stranded.no_order': 'Conflict',
  /** the order the stranded payment names no longer exists */
  'stranded.order_gone': 'Conflict',
  /** the refund transaction is recorded as the refund of another payment */
  'stranded.refund_used': 'Conflict',
  /** the chain has no transaction of this digest */
  'stranded.refund_not_on_chain': 'NotFound',
  /** the refund transaction does not pay the payer the amount paid */
  'stranded.refund_mismatch': 'Conflict',
});
export const paymentError = paymentErrors.fail;
