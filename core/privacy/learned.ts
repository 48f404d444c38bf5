import { ownerOf } from '../access/owners.js';
import { goodsOrder, goodsOrderOuterCopy, goodsOrderTraceCopy, partnerReward } from '../goods/items.js';
import { hero, heroGrant } from '../heroes/items.js';
import { payOrder } from '../payments/items.js';
import type { Item } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { itemsOf, type Footprint } from '../platform/footprint.js';
import { idempotencyRecord } from '../platform/items.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { result, score } from '../rankings/items.js';
import { historyEntry } from '../rewards/items.js';
import type { PrivacyDeps } from './deps.js';
import { LEARNED_PREFIX as PREFIX, learnedKey } from './keys.js';
import { StoredLearned } from './models.js';
import { scoreSeasonsOf } from './rank-pages.js';

/**
 * What a deletion learns of the player from each round's footprint (learnedFrom), from the kinds that carry it: what
 * identifies them (for the kept records' scrub) and who to tell. Kept beside the deletion's record (below) before
 * any item it was learned from goes.
 */
export interface Learned {
  /** Texts that identify the player: the uid, wallet addresses (with and without 0x). */
  identifiers: string[];
  /** The player's names on boards. */
  names: string[];
  /** The studios (console account ids) whose games or projects the player used. */
  studios: string[];
  /** The hero NFTs bound to the player when the deletion found them. */
  nfts: string[];
  /** The seasons the player had scores in (rank-pages.ts), for the sweep to take them off those boards. */
  seasons: string[];
}

export interface Subject extends Learned {
  uid: string;
  address?: string;
  pseudonym: string;
}

const union = (known: string[], more: Iterable<string | undefined>) => {
  const all = new Set(known);
  for (const value of more) if (value) all.add(value);
  return all.size === known.length ? known : [...all];
};
const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const withoutPrefix = (address: string | undefined) => (address?.startsWith('0x') ? address.slice(2) : undefined);

/** What the footprint adds to what the deletion knows; the same object when nothing is new. */
export async function learnedFrom(deps: PrivacyDeps, subject: Subject, footprint: Footprint<PrivacyDeps>): Promise<Subject> {
  const history = itemsOf(footprint, historyEntry);
  const scores = itemsOf(footprint, score);
  const addresses = [
    subject.address,
    ...history.map((entry) => text(entry.wallet_address)),
    ...history.map((entry) => text((entry.claim as Item | undefined)?.recipient)),
  ];
  const identifiers = union(subject.identifiers, [subject.uid, ...addresses, ...addresses.map(withoutPrefix)]);
  const names = union(
    subject.names,
    scores.map((item) => text(item.game_player_name)),
  );
  const nfts = union(
    subject.nfts,
    itemsOf(footprint, hero).map((item) => text(item.nftObjectId)),
  );
  const studios = union(subject.studios, await studiosOf(deps, footprint));
  const seasons = union(subject.seasons, scoreSeasonsOf(scores));
  const same = identifiers === subject.identifiers && names === subject.names && nfts === subject.nfts && studios === subject.studios;
  if (same && seasons === subject.seasons) return subject;
  return { ...subject, identifiers, names, nfts, studios, seasons };
}

async function studiosOf(deps: PrivacyDeps, footprint: Footprint<PrivacyDeps>): Promise<string[]> {
  const projects = new Set<string>();
  const games = new Set<string>();
  const studios = new Set<string>();
  for (const [kind, items] of footprint) {
    if ('own' in kind.player.reach) for (const item of items) if (text(item.projectName)) projects.add(String(item.projectName));
  }
  for (const order of itemsOf(footprint, payOrder)) if (text(order.project_name)) projects.add(String(order.project_name));
  for (const kind of [score, result, idempotencyRecord, heroGrant, historyEntry]) {
    for (const item of itemsOf(footprint, kind)) if (text(item.game_code)) games.add(String(item.game_code));
  }
  for (const kind of [goodsOrder, goodsOrderTraceCopy, goodsOrderOuterCopy, partnerReward]) {
    for (const item of itemsOf(footprint, kind)) if (text(item.accountId)) studios.add(String(item.accountId));
  }
  const owners = await Promise.all([...[...projects].map((name) => ownerOf(deps, 'project', name)), ...[...games].map((code) => ownerOf(deps, 'game', code))]);
  for (const owner of owners) if (owner) studios.add(owner);
  return [...studios];
}

/**
 * What a deletion learned of the player (`Learned`: identifiers, names, studios, NFTs, seasons), kept
 * beside its record as one item per value: pk `ERASURE#<proof id>`, sk `LEARNED#<kind>#<SHA-256 of the value>`,
 * the value in `value` (a name is any text; a key of it could break the key's rules). The lists grow
 * with the player's footprint (a season for every game and week or month the player had scores in, a name for
 * each), which no one bounds, so inside the record they could bring it near DynamoDB's 400 KB and stop the
 * deletion; as items of their own, the record stays small and the values are read back with it by one Query.
 * Records written before keep their lists inline; both are read.
 */
export const LEARNED_KINDS = ['identifiers', 'names', 'studios', 'nfts', 'seasons'] as const satisfies readonly (keyof Learned)[];
type Kind = (typeof LEARNED_KINDS)[number];

/** Items per transaction: DynamoDB's most. */
const PER_WRITE = 100;

/** The learned values among a deletion's items (its partition, as one Query reads it), with the record's inline lists. */
export function learnedOf(items: readonly Item[], inline: Learned): Learned {
  const learned = Object.fromEntries(LEARNED_KINDS.map((kind) => [kind, new Set(inline[kind])])) as Record<Kind, Set<string>>;
  for (const item of items) {
    const sk = String(item.sk);
    if (!sk.startsWith(PREFIX)) continue;
    const kind = LEARNED_KINDS.find((known) => sk.startsWith(`${PREFIX}${known}#`));
    if (kind) learned[kind].add(StoredLearned.parse(item).value);
  }
  return Object.fromEntries(LEARNED_KINDS.map((kind) => [kind, [...learned[kind]]])) as unknown as Learned;
}

/** Keeps the values `now` holds that `before` did not; each is a Put of its own key, so writing one again changes nothing. */
export async function keepLearned(deps: Pick<PlatformDeps, 'db' | 'table'>, proofId: string, before: Learned, now: Learned) {
  const puts: TransactItem[] = LEARNED_KINDS.flatMap((kind) =>
    now[kind]
      .filter((value) => !before[kind].includes(value))
      .map((value) => ({ Put: { TableName: deps.table, Item: { ...learnedKey(proofId, kind, value), type: 'erasure_learned', value } } })),
  );
  await writeAll(deps, puts);
}

/** Deletes every learned value of the deletion (its last sweep). */
export async function forgetLearned(deps: Pick<PlatformDeps, 'db' | 'table'>, proofId: string, learned: Learned) {
  const deletes: TransactItem[] = LEARNED_KINDS.flatMap((kind) =>
    learned[kind].map((value) => ({ Delete: { TableName: deps.table, Key: learnedKey(proofId, kind, value) } })),
  );
  await writeAll(deps, deletes);
}

async function writeAll(deps: Pick<PlatformDeps, 'db' | 'table'>, items: TransactItem[]) {
  for (let start = 0; start < items.length; start += PER_WRITE) await transactOrFailures(deps, items.slice(start, start + PER_WRITE));
}
