import { goodsOrder, goodsOrderCopy, partnerReward } from '../goods/items.js';
import { hero, heroGrant } from '../heroes/items.js';
import { playerAccount, playerParams, socialBinding, socialListing, walletBinding, walletNonce } from '../identity/items.js';
import { leagueTier } from '../leagues/items.js';
import { payOrder, paymentEvent, strandedPayment } from '../payments/items.js';
import { readFootprint } from '../platform/footprint.js';
import type { PlayerKind, PlayerRef } from '../platform/item-kinds.js';
import { idempotencyRecord } from '../platform/items.js';
import { result, score } from '../rankings/items.js';
import { historyEntry } from '../rewards/items.js';
import { ledgerEntry, ticketBalance } from '../tickets/items.js';
import type { PrivacyDeps } from './deps.js';
import { deletionNonce } from './items.js';

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
  goodsOrderCopy,
  partnerReward,
  historyEntry,
  score,
  result,
  leagueTier,
  idempotencyRecord,
];

/** Everything the table holds about the player, kind by kind. */
export const playerFootprint = (deps: PrivacyDeps, player: PlayerRef) => readFootprint(deps, player, PLAYER_KINDS);
