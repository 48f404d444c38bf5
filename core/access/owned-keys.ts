/**
 * The keys of two of the items that carry an owner, read by ownerOf (owners.ts): a project (core/payments) and a
 * goods item (core/goods). They live here, below those domains, so access reads owners without importing the
 * domains that check access; each domain imports its own key from here. A game's key stays in core/games,
 * which sits below access.
 */
export const projectKey = (name: string) => ({ pk: `PROJECT#${name}`, sk: 'PROJECT' });
export const goodsKey = (id: number) => ({ pk: `GOODS#${id}`, sk: 'GOODS' });
