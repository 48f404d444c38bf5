import { errorCatalogue } from '../platform/errors.js';

/** The error codes of App Store and Google Play purchases, their notifications and refunds. */
export const storesErrors = errorCatalogue({
  'appstore.unconfigured': ['Unavailable', 'App Store purchases, or the App Store Server API, are not configured on this stage'],
  'appstore.unavailable': ['Unavailable', 'the App Store (its Server API or certificate revocation) could not be asked now; try again later'],
  'appstore.jws_invalid': ['InvalidInput', 'the signed transaction or payload is not a JWS the App Store signed'],
  'appstore.environment_refused': ['InvalidInput', 'the data is of an App Store environment this stage does not take'],
  'appstore.notification_invalid': ['InvalidInput', 'the notification misses a field its type needs'],
  'appstore.test_notification_not_found': ['NotFound', 'Apple knows no test notification of this token'],
  'googleplay.unconfigured': ['Unavailable', 'Google Play purchases, or the Play Developer API, are not configured on this stage'],
  'googleplay.unavailable': ['Unavailable', 'Google Play could not be asked now; try again later'],
  'googleplay.push_token_missing': ['Unauthenticated', 'the push carries no Pub/Sub OIDC token'],
  'googleplay.push_sender_refused': ['Unauthenticated', "the push's token is not of the stage's verified push service account"],
  'googleplay.notification_invalid': ['InvalidInput', "the message is not a developer notification of this stage's app"],
  'googleplay.delivery_concurrent': ['Conflict', 'the message was handled meanwhile by another delivery'],
  'purchase.not_found': ['NotFound', 'the store knows no transaction of this id'],
  'purchase.transaction_incomplete': ['Conflict', 'the transaction names no transactionId or productId'],
  'purchase.not_for_order': ['Conflict', 'the purchase was made for another order, or names none'],
  'purchase.order_without_product': ['Conflict', 'the order has no store product'],
  'purchase.wrong_product': ['Conflict', 'the purchase bought another product than the order is for'],
  'purchase.not_consumable': ['Conflict', 'the purchase is not of a consumable'],
  'purchase.quantity_not_one': ['Conflict', 'the purchase bought more than one at once'],
  'purchase.revoked': ['Conflict', 'the store took the purchase back (refunded or revoked)'],
  'purchase.paid_other_order': ['Conflict', 'the store transaction paid another order'],
  'order.not_paid': ['Conflict', 'the order is not paid, so there is nothing to take back'],
});
export const storesError = storesErrors.fail;
