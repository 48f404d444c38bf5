/**
 * The key of a player's account (core/identity/accounts.ts "account of a user"), apart from the account's reads and
 * writes, so that what an operation reads first can be named (core/http/operation.ts FirstReads) without loading
 * the table's client.
 */
export const userKey = (uid: string) => ({ pk: `USER#${uid}`, sk: 'ACCOUNT' });
