import { errorCatalogue } from '../platform/errors.js';

/** The error codes of App Store and Google Play purchases, their notifications and refunds. */
export const storesErrors = errorCatalogue({
  /** App Store purchases, or the App Store Server API, are not configured on this stage */
  'appstore.unconfigured': 'Unavailable',
  /** the App Store (its Server API or certificate revocation) could not be asked now; try again later */
  'appstore.unavailable': 'Unavailable',
  /** the signed transaction or payload is not a JWS the App Store signed */
  'appstore.jws_invalid': 'InvalidInput',
  /** the data is of an App Store environment this stage does not take */
  'appstore.environment_refused': 'InvalidInput',
  /** the notification misses a field its type needs */
  'appstore.notification_invalid': 'InvalidInput',
  /** Apple knows no test notification of this token */
  'appstore.test_notification_not_found': 'NotFound',
  /** Google Play purchases, or the Play Developer API, are not configured on this stage */
  'googleplay.unconfigured': 'Unavailable',
  /** Google Play could not be asked now; try again later */
  'googleplay.unavailable': 'Unavailable',
  /** the push carries no Pub/Sub OIDC token */
  'googleplay.push_token_missing': 'Unauthenticated',
  /** the push's token is not of the stage's verified push service account */
  'googleplay.push_sender_refused': 'Unauthenticated',
  /** the message is not a developer notification of this stage's app */
  'googleplay.notification_invalid': 'InvalidInput',
  /** the message was handled meanwhile by another delivery */
  'googleplay.delivery_concurrent': 'Conflict',
  /** the store knows no transaction of this id */
  'purchase.not_found': 'NotFound',
  /** the transaction names no transactionId or productId */
  'purchase.transaction_incomplete': 'Conflict',
  /** the purchase was made for another order, or names none */
  'purchase.not_for_order': 'Conflict',
  /** the order has no store product */
  'purchase.order_without_product': 'Conflict',
  /** the purchase bought another product than the order is for */
  'purchase.wrong_product': 'Conflict',
  /** the purchase is not of a consumable */
  'purchase.not_consumable': 'Conflict',
  /** the purchase bought more than one at once */
  'purchase.quantity_not_one': 'Conflict',
  /** the store took the purchase back (refunded or revoked) */
  'purchase.revoked': 'Conflict',
  /** the store transaction paid another order */
  'purchase.paid_other_order': 'Conflict',
  /** the order is not paid, so there is nothing to take back */
  'order.not_paid': 'Conflict',
});
export const storesError = storesErrors.fail;
