/**
 * Access's keys, built here alone.
 *
 * Two of the items that carry an owner, read by ownerOf (owners.ts): a project (core/payments) and a goods item
 * (core/goods). Their keys live here, below those domains, so access reads owners without importing the domains
 * that check access; each domain imports its own key from here. A game's key stays in core/games (keys.ts), which
 * sits below access.
 */
/** "project by name": pk `PROJECT#<name>`, sk `PROJECT`. */
export const projectKey = (name: string) => ({ pk: `PROJECT#${name}`, sk: 'PROJECT' });
/** "goods by id": pk `GOODS#<id>`, sk `GOODS`. */
export const goodsKey = (id: number) => ({ pk: `GOODS#${id}`, sk: 'GOODS' });

/** "a console account's revoked tokens" (principals.ts): pk `REVOKE#<accountId>`, sk `TOKENS`. */
export const revocationKey = (accountId: string) => ({ pk: `REVOKE#${accountId}`, sk: 'TOKENS' });

/** "a merchant's server tokens, newest first" (server-tokens.ts): the partition `SERVERTOKENS#<accountId>`. */
export const serverTokensPartition = (accountId: string) => `SERVERTOKENS#${accountId}`;
/** The sort key prefix of a merchant's server tokens. */
export const SERVER_TOKEN_PREFIX = 'TOKEN#';
/** "a merchant's server token": pk `SERVERTOKENS#<accountId>`, sk `TOKEN#<id>`. */
export const serverTokenKey = (accountId: string, id: string) => ({ pk: serverTokensPartition(accountId), sk: `${SERVER_TOKEN_PREFIX}${id}` });
