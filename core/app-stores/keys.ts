/**
 * The app stores' keys, built here alone; each module that owns an access pattern describes it.
 */
/** The partition prefix and the sort key of a store purchase's claim. */
export const STORE_TX_PREFIX = 'STORETX#';
export const STORE_TX_SORT = 'STORETX';
/**
 * "a store purchase's claim" (core/app-stores/purchase-claims.ts): pk `STORETX#<store>#<transactionId>`, sk `STORETX`
 * (Google Play's transaction id is the purchase token's digest).
 */
export const storeTxKey = (store: 'apple' | 'google', transactionId: string) => ({ pk: `${STORE_TX_PREFIX}${store}#${transactionId}`, sk: STORE_TX_SORT });
/** The partition prefix and the sort key of an App Store notification seen. */
export const APPLE_NOTE_PREFIX = 'APPLENOTE#';
export const APPLE_NOTE_SORT = 'APPLENOTE';
/** "an App Store notification seen" (core/app-stores/apple-notifications.ts): pk `APPLENOTE#<notificationUUID>`, sk `APPLENOTE`. */
export const noteKey = (uuid: string) => ({ pk: `${APPLE_NOTE_PREFIX}${uuid}`, sk: APPLE_NOTE_SORT });
/** The partition prefix and the sort key of a handled Google Play message. */
export const GOOGLE_MESSAGE_PREFIX = 'GOOGLEMSG#';
export const GOOGLE_MESSAGE_SORT = 'GOOGLEMSG';
/** "a handled Google Play message" (core/app-stores/google-notifications.ts): pk `GOOGLEMSG#<messageId>`, sk `GOOGLEMSG`. */
export const messageKey = (messageId: string) => ({ pk: `${GOOGLE_MESSAGE_PREFIX}${messageId}`, sk: GOOGLE_MESSAGE_SORT });
