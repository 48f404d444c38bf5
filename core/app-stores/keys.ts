/**
 * The app stores' keys, built here alone; each module that owns an access pattern describes it.
 */
/**
 * "a store purchase's claim" (core/app-stores/purchase-claims.ts): pk `STORETX#<store>#<transactionId>`, sk `STORETX`
 * (Google Play's transaction id is the purchase token's digest).
 */
export const storeTxKey = (store: 'apple' | 'google', transactionId: string) => ({ pk: `STORETX#${store}#${transactionId}`, sk: 'STORETX' });
/** "an App Store notification seen" (core/app-stores/apple-notifications.ts): pk `APPLENOTE#<notificationUUID>`, sk `APPLENOTE`. */
export const noteKey = (uuid: string) => ({ pk: `APPLENOTE#${uuid}`, sk: 'APPLENOTE' });
/** "a handled Google Play message" (core/app-stores/google-notifications.ts): pk `GOOGLEMSG#<messageId>`, sk `GOOGLEMSG`. */
export const messageKey = (messageId: string) => ({ pk: `GOOGLEMSG#${messageId}`, sk: 'GOOGLEMSG' });
