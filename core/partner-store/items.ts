import { exactly, type ItemKind, itemKind, type KeyShape, type PlayerKind, startsWith } from '../platform/item-kinds.js';
import { idempotencyRecord } from '../platform/items.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition, type PlayerItemKind } from '../platform/players.js';
import { StoredAssertion } from './assertions.js';
import { StoredCode, StoredRequest } from './authorization.js';
import { StoredClient } from './clients.js';
import { StoredFamily, StoredRefresh } from './grants.js';
import {
  BALANCE_PREFIX,
  CLIENT_PREFIX,
  CLIENT_SORT,
  CODE_PREFIX,
  CODE_SORT,
  FAMILY_PREFIX,
  FAMILY_SORT,
  FEEDLOG_PREFIX,
  GRANT_PREFIX,
  GRANT_SORT,
  JTI_PREFIX,
  JTI_SORT,
  LEDGER_PREFIX,
  LOGIN_PREFIX,
  LOGIN_SORT,
  PET_PREFIX,
  PETS_COUNT_SORT,
  REFRESH_PREFIX,
  REFRESH_SORT,
  REQUEST_PREFIX,
  REQUEST_SORT,
  STORE_USER_PREFIX,
  STORE_USER_SORT,
  storeLedgerKey,
  storePartition,
} from './keys.js';
import { grantKey } from './keys.js';
import { Feeding } from './models.js';
import { StoredAdoptions, StoredPet } from './pets.js';
import { StoredLogin, StoredUser } from './sessions.js';
import { StoredBalance, StoredGrant, StoredLedgerEntry } from './wallet.js';

/**
 * The partner store's items that hold a store user's data (core/platform/item-kinds.ts), as the user's deletion
 * (deletion.ts) walks them with the same rounds as a player's (core/platform/erase-round.ts). docs/security.md "The
 * partner store's users" has the table. A store user has no export: the partner holds its users' data.
 */

/** The store user: it marks the deletion as running (its tokens refused, its writes refused) until the end deletes it. */
export const storeUser = itemKind({
  name: 'store user',
  type: 'store_user',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: exactly(STORE_USER_SORT) },
  model: StoredUser,
  player: { reach: { own: storePartition }, deletion: { does: 'deletedLast' } },
});

/** A balance: forfeited by a ledger entry of minus it, once per balance (the user's writes are refused meanwhile). */
export const storeBalance = itemKind({
  name: 'store balance',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: startsWith(BALANCE_PREFIX) },
  model: StoredBalance,
  player: {
    reach: { own: storePartition },
    deletion: {
      does: 'forfeited',
      kept: (balance, { pseudonym, deletedAt }) => {
        const amount = StoredBalance.parse(balance).balance;
        if (amount === 0) return [];
        const [, holding, code] = String(balance.sk).split('#') as [string, string, string];
        return [
          {
            ...storeLedgerKey(pseudonym, `forfeit#${holding}#${code}`),
            type: 'store_ledger',
            uid: pseudonym,
            holding,
            code,
            change: -amount,
            ref: 'forfeit',
            created_at: deletedAt,
          },
        ];
      },
    },
  },
});

/** A ledger entry: kept under the pseudonym (its key names the uid, so it moves to `STOREUSER#<pseudonym>`). */
export const storeLedgerEntry = itemKind({
  name: 'store ledger',
  type: 'store_ledger',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: startsWith(LEDGER_PREFIX) },
  model: StoredLedgerEntry,
  player: { reach: { own: storePartition }, deletion: { does: 'pseudonymized' } },
});

/** A pet (with it, its place on the region's board, gsi4), the adoption count and the feedings go. */
export const pet = itemKind({
  name: 'pet',
  type: 'store_pet',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: startsWith(PET_PREFIX) },
  indexes: ['gsi4'],
  model: StoredPet,
  player: { reach: { own: storePartition }, deletion: { does: 'deleted' } },
});
export const adoptions = itemKind({
  name: 'adoptions',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: exactly(PETS_COUNT_SORT) },
  model: StoredAdoptions,
  player: { reach: { own: storePartition }, deletion: { does: 'deleted' } },
});
export const feeding = itemKind({
  name: 'feeding',
  type: 'store_feeding',
  keys: { pk: startsWith(STORE_USER_PREFIX), sk: startsWith(FEEDLOG_PREFIX) },
  model: Feeding,
  player: { reach: { own: storePartition }, deletion: { does: 'deleted' } },
});

/**
 * A partner's grant, which the ledger entry it made names (`grant#<client_id>#<reference>`; a reference has no `#`):
 * kept for accounting, since its reference stays taken for good, saying what it granted but no longer whom. Its
 * fingerprint goes: it was taken over a body that named the user.
 */
export const partnerGrant = itemKind({
  name: 'partner grant',
  type: 'store_grant',
  keys: { pk: startsWith(GRANT_PREFIX), sk: exactly(GRANT_SORT) },
  model: StoredGrant,
  player: {
    reach: {
      via: storeLedgerEntry,
      sortPrefix: `${LEDGER_PREFIX}grant#`,
      keysOf: (entry) => {
        const { ref } = StoredLedgerEntry.parse(entry);
        const last = ref.lastIndexOf('#');
        return ref.startsWith('grant#') ? [grantKey(ref.slice('grant#'.length, last), ref.slice(last + 1))] : [];
      },
    },
    deletion: { does: 'pseudonymized', drop: ['fingerprint'] },
  },
});

/** The user's items that no key leads to, listed in gsi6 by their kind, all deleted. */
const indexed = (name: string, type: string, kind: PlayerItemKind, keys: { pk: KeyShape; sk: KeyShape }, model: { parse: (item: unknown) => unknown }) =>
  itemKind({
    name,
    type,
    keys,
    indexes: [PLAYER_ITEMS_INDEX],
    model,
    player: {
      reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: kind, keysOnly: true },
      deletion: { does: 'deleted' },
    },
  });
export const authorizationCode = indexed('authorization code', 'store_code', 'STORECODE', { pk: startsWith(CODE_PREFIX), sk: exactly(CODE_SORT) }, StoredCode);
export const tokenFamily = indexed('token family', 'store_family', 'STOREFAMILY', { pk: startsWith(FAMILY_PREFIX), sk: exactly(FAMILY_SORT) }, StoredFamily);
export const refreshToken = indexed(
  'refresh token',
  'store_refresh',
  'STOREREFRESH',
  { pk: startsWith(REFRESH_PREFIX), sk: exactly(REFRESH_SORT) },
  StoredRefresh,
);

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
 * A partner's user's login (`store_login`): the partner's id of the user in its key, and the uid. While the user's
 * deletion runs it is the deletion's record, so the deletion itself, not one of its rounds, takes care of it.
 */
export const storeLogin = itemKind({
  name: 'store login',
  type: 'store_login',
  keys: { pk: startsWith(LOGIN_PREFIX), sk: exactly(LOGIN_SORT) },
  model: StoredLogin,
  player: {
    ownFlow:
      "deleteStoreUser (deletion.ts) makes it the deletion's record (pseudonym, deleted_at) when the deletion starts and deletes it with the store user item when it ends; no reach finds it, as its key is built from the partner's id of the user that the deletion's assertion names (`STORELOGIN#<region>#<client_id>#<sub>`), and nothing keyed by the uid leads to it.",
  },
});

/**
 * Every kind the partner store declares (the idempotency record is the platform's). Its clients (in their region's
 * list, gsi1), pending authorization requests and spent assertion ids are a partner's, before any user.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  ...STORE_USER_KINDS.filter((kind) => kind !== idempotencyRecord),
  storeLogin,
  itemKind({
    name: 'partner store client',
    type: 'store_client',
    keys: { pk: startsWith(CLIENT_PREFIX), sk: exactly(CLIENT_SORT) },
    indexes: ['gsi1'],
    model: StoredClient,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'store authorization request',
    type: 'store_authz',
    keys: { pk: startsWith(REQUEST_PREFIX), sk: exactly(REQUEST_SORT) },
    model: StoredRequest,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'store assertion',
    type: 'store_jti',
    keys: { pk: startsWith(JTI_PREFIX), sk: exactly(JTI_SORT) },
    model: StoredAssertion,
    player: { holdsNoPlayerData: true },
  }),
];
