/**
 * Access's keys, built here alone.
 *
 * Two of the items that carry an owner, read by ownerOf (owners.ts): a project (core/payments) and a goods item
 * (core/goods). Their keys live here, below those domains, so access reads owners without importing the domains
 * that check access; each domain imports its own key from here. A game's key stays in core/games (keys.ts), which
 * sits below access.
 */
/** The partition prefix and the sort key of a project (payments declares its kind). */
export const PROJECT_PREFIX = 'PROJECT#';
export const PROJECT_SORT = 'PROJECT';
/** "project by name": pk `PROJECT#<name>`, sk `PROJECT`. */
export const projectKey = (name: string) => ({ pk: `${PROJECT_PREFIX}${name}`, sk: PROJECT_SORT });
/** The partition prefix and the sort key of a goods item (goods declares its kind). */
export const GOODS_PREFIX = 'GOODS#';
export const GOODS_SORT = 'GOODS';
/** "goods by id": pk `GOODS#<id>`, sk `GOODS`. */
export const goodsKey = (id: number) => ({ pk: `${GOODS_PREFIX}${id}`, sk: GOODS_SORT });

/** The partition prefix and the sort key of a console account's revocation item. */
export const REVOCATION_PREFIX = 'REVOKE#';
export const REVOCATION_SORT = 'TOKENS';
/** "a console account's revoked tokens" (principals.ts): pk `REVOKE#<accountId>`, sk `TOKENS`. */
export const revocationKey = (accountId: string) => ({ pk: `${REVOCATION_PREFIX}${accountId}`, sk: REVOCATION_SORT });

/** The partition prefix of a merchant's server tokens. */
export const SERVER_TOKENS_PREFIX = 'SERVERTOKENS#';
/** "a merchant's server tokens, newest first" (server-tokens.ts): the partition `SERVERTOKENS#<accountId>`. */
export const serverTokensPartition = (accountId: string) => `${SERVER_TOKENS_PREFIX}${accountId}`;
/** The sort key prefix of a merchant's server tokens. */
export const SERVER_TOKEN_PREFIX = 'TOKEN#';
/** "a merchant's server token": pk `SERVERTOKENS#<accountId>`, sk `TOKEN#<id>`. */
export const serverTokenKey = (accountId: string, id: string) => ({ pk: serverTokensPartition(accountId), sk: `${SERVER_TOKEN_PREFIX}${id}` });
