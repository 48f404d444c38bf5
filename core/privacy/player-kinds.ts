import { ITEM_KINDS as accessKinds } from '../access/items.js';
import { ITEM_KINDS as appStoresKinds } from '../app-stores/items.js';
import { ITEM_KINDS as chainKinds } from '../chain/items.js';
import { ITEM_KINDS as gamesKinds } from '../games/items.js';
import { goodsOrder, goodsOrderOuterCopy, goodsOrderTraceCopy, partnerReward, ITEM_KINDS as goodsKinds } from '../goods/items.js';
import { hero, heroGrant, ITEM_KINDS as heroesKinds } from '../heroes/items.js';
import { playerAccount, playerParams, socialBinding, socialListing, walletBinding, walletNonce, ITEM_KINDS as identityKinds } from '../identity/items.js';
import { leagueTier, ITEM_KINDS as leaguesKinds } from '../leagues/items.js';
import { ITEM_KINDS as merchantsKinds } from '../merchants/items.js';
import { ITEM_KINDS as partnerStoreKinds } from '../partner-store/items.js';
import { payOrder, paymentEvent, strandedPayment, ITEM_KINDS as paymentsKinds } from '../payments/items.js';
import { readFootprint } from '../platform/footprint.js';
import type { ItemKind, PlayerKind, PlayerRef } from '../platform/item-kinds.js';
import { idempotencyRecord, ITEM_KINDS as platformKinds } from '../platform/items.js';
import { result, score, ITEM_KINDS as rankingsKinds } from '../rankings/items.js';
import { historyEntry, ITEM_KINDS as rewardsKinds } from '../rewards/items.js';
import { sponsoredClaim, sponsoredDay, ITEM_KINDS as sponsorshipKinds } from '../sponsorship/items.js';
import { ledgerEntry, ticketBalance, ITEM_KINDS as ticketsKinds } from '../tickets/items.js';
import type { PrivacyDeps } from './deps.js';
import { deletionNonce, ITEM_KINDS as privacyKinds } from './items.js';

/**
 * Every kind of item that can hold a player's data, as its domain declares it (`core/<domain>/items.ts`): what a
 * player's deletion (deletion.ts, with core/platform/footprint.ts and erase-round.ts) and export (export-sections.ts) walk. test/player-kinds.test.ts fails
 * when a kind declared with player data anywhere in core is missing here.
 */
export const PLAYER_KINDS: readonly PlayerKind<PrivacyDeps>[] = [
  playerAccount,
  playerParams,
  socialListing,
  socialBinding,
  walletBinding,
  walletNonce,
  deletionNonce,
  ticketBalance,
  ledgerEntry,
  hero,
  heroGrant,
  payOrder,
  paymentEvent,
  strandedPayment,
  goodsOrder,
  goodsOrderTraceCopy,
  goodsOrderOuterCopy,
  partnerReward,
  historyEntry,
  score,
  result,
  leagueTier,
  sponsoredClaim,
  sponsoredDay,
  idempotencyRecord,
];

/** Everything the table holds about the player, kind by kind. */
export const playerFootprint = (deps: PrivacyDeps, player: PlayerRef) => readFootprint(deps, player, PLAYER_KINDS);

/**
 * @internal Every kind of stored item, those that hold no player's data included: each domain's `ITEM_KINDS`
 * (core/<domain>/items.ts). test/player-kinds.test.ts holds every `type` that core/ writes to one of them.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  ...accessKinds,
  ...appStoresKinds,
  ...chainKinds,
  ...gamesKinds,
  ...goodsKinds,
  ...heroesKinds,
  ...identityKinds,
  ...leaguesKinds,
  ...merchantsKinds,
  ...partnerStoreKinds,
  ...paymentsKinds,
  ...platformKinds,
  ...privacyKinds,
  ...rankingsKinds,
  ...rewardsKinds,
  ...sponsorshipKinds,
  ...ticketsKinds,
];
