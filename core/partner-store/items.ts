import { type ItemKind, itemKind, type PlayerKind } from '../platform/item-kinds.js';
import { idempotencyRecord } from '../platform/items.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition, type PlayerItemKind } from '../platform/players.js';
import { BALANCE_PREFIX, FEEDLOG_PREFIX, LEDGER_PREFIX, PET_PREFIX, storeLedgerKey, storePartition, storeUserKey } from './keys.js';
import { grantKey } from './keys.js';

/**
 * The partner store's items that hold a store user's data (core/platform/item-kinds.ts), as the user's deletion
 * (deletion.ts) walks them with the same rounds as a player's (core/platform/erase-round.ts). docs/security.md "The
 * partner store's users" has the table. A store user has no export: the partner holds its users' data.
 */

/** The store user: it marks the deletion as running (its tokens refused, its writes refused) until the end deletes it. */
export const storeUser = itemKind({
  name: 'store user',
  type: 'store_user',
  player: { reach: { own: storePartition, sortPrefix: storeUserKey('').sk }, deletion: { does: 'deletedLast' } },
});

/** A balance: forfeited by a ledger entry of minus it, once per balance (the user's writes are refused meanwhile). */
export const storeBalance = itemKind({
  name: 'store balance',
  player: {
    reach: { own: storePartition, sortPrefix: BALANCE_PREFIX },
    deletion: {
      does: 'forfeited',
      entry: (balance, { pseudonym, deletedAt }) => {
        const amount = typeof balance.balance === 'number' ? balance.balance : 0;
        if (amount === 0) return undefined;
        const [, holding, code] = String(balance.sk).split('#') as [string, string, string];
        return {
          ...storeLedgerKey(pseudonym, `forfeit#${holding}#${code}`),
          type: 'store_ledger',
          uid: pseudonym,
          holding,
          code,
          change: -amount,
          ref: 'forfeit',
          created_at: deletedAt,
        };
      },
    },
  },
});

/** A ledger entry: kept under the pseudonym (its key names the uid, so it moves to `STOREUSER#<pseudonym>`). */
export const storeLedgerEntry = itemKind({
  name: 'store ledger',
  type: 'store_ledger',
  player: { reach: { own: storePartition, sortPrefix: LEDGER_PREFIX }, deletion: { does: 'pseudonymized' } },
});

/** A pet (with it, its place on the region's board), the adoption count and the feedings go. */
export const pet = itemKind({
  name: 'pet',
  type: 'store_pet',
  player: { reach: { own: storePartition, sortPrefix: PET_PREFIX }, deletion: { does: 'deleted' } },
});
export const adoptions = itemKind({ name: 'adoptions', player: { reach: { own: storePartition, sortPrefix: 'PETS' }, deletion: { does: 'deleted' } } });
export const feeding = itemKind({
  name: 'feeding',
  type: 'store_feeding',
  player: { reach: { own: storePartition, sortPrefix: FEEDLOG_PREFIX }, deletion: { does: 'deleted' } },
});

/**
 * A partner's grant, which the ledger entry it made names (`grant#<client_id>#<reference>`; a reference has no `#`):
 * kept for accounting, since its reference stays taken for good, saying what it granted but no longer whom. Its
 * fingerprint goes: it was taken over a body that named the user.
 */
export const partnerGrant = itemKind({
  name: 'partner grant',
  type: 'store_grant',
  player: {
    reach: {
      via: storeLedgerEntry,
      sortPrefix: `${LEDGER_PREFIX}grant#`,
      keysOf: (entry) => {
        const ref = String(entry.ref ?? '');
        const last = ref.lastIndexOf('#');
        return ref.startsWith('grant#') ? [grantKey(ref.slice('grant#'.length, last), ref.slice(last + 1))] : [];
      },
    },
    deletion: { does: 'pseudonymized', drop: ['fingerprint'] },
  },
});

/** The user's items that no key leads to, listed in gsi6 by their kind, all deleted. */
const indexed = (name: string, type: string, kind: PlayerItemKind) =>
  itemKind({
    name,
    type,
    player: {
      reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: kind, keysOnly: true },
      deletion: { does: 'deleted' },
    },
  });
export const authorizationCode = indexed('authorization code', 'store_code', 'STORECODE');
export const tokenFamily = indexed('token family', 'store_family', 'STOREFAMILY');
export const refreshToken = indexed('refresh token', 'store_refresh', 'STOREREFRESH');

/**
 * Every kind a store user's deletion walks: the ones above, and the idempotency records of the user's requests
 * (a paid adoption's), the platform's own kind. test/player-kinds.test.ts fails when a kind declared here is missing.
 */
export const STORE_USER_KINDS: readonly PlayerKind[] = [
  storeUser,
  storeBalance,
  storeLedgerEntry,
  pet,
  adoptions,
  feeding,
  partnerGrant,
  authorizationCode,
  tokenFamily,
  refreshToken,
  idempotencyRecord,
];

/**
 * Every kind the partner store declares (the idempotency record is the platform's). Its clients, pending authorization
 * requests and spent assertion ids are a partner's, before any user. A partner user's login item (`store_login`: the
 * partner's id of the user, and the uid) has no declaration: the user's deletion marks it first and deletes it last.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  ...STORE_USER_KINDS.filter((kind) => kind !== idempotencyRecord),
  itemKind({ name: 'partner store client', type: 'store_client', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'store authorization request', type: 'store_authz', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'store assertion', type: 'store_jti', player: { holdsNoPlayerData: true } }),
];
