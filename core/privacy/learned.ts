import type { Item } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { sha256Url } from '../platform/digest.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import type { Learned } from './erase.js';
import { erasureKey } from './keys.js';

/**
 * What a deletion learned of the player (erase.ts `Learned`: identifiers, names, studios, NFTs, seasons), kept
 * beside its record as one item per value: pk `ERASURE#<proof id>`, sk `LEARNED#<kind>#<SHA-256 of the value>`,
 * the value in `value` (a name is any text; a key of it could break the key's rules). The lists grow
 * with the player's footprint (a season for every game and week or month the player had scores in, a name for
 * each), which no one bounds, so inside the record they could bring it near DynamoDB's 400 KB and stop the
 * deletion; as items of their own, the record stays small and the values are read back with it by one Query.
 * Records written before keep their lists inline; both are read.
 */
export const LEARNED_KINDS = ['identifiers', 'names', 'studios', 'nfts', 'seasons'] as const satisfies readonly (keyof Learned)[];
type Kind = (typeof LEARNED_KINDS)[number];

const PREFIX = 'LEARNED#';
const learnedKey = (proofId: string, kind: Kind, value: string) => ({ pk: erasureKey(proofId).pk, sk: `${PREFIX}${kind}#${sha256Url(value)}` });

/** Items per transaction: DynamoDB's most. */
const PER_WRITE = 100;

/** The learned values among a deletion's items (its partition, as one Query reads it), with the record's inline lists. */
export function learnedOf(items: readonly Item[], inline: Learned): Learned {
  const learned = Object.fromEntries(LEARNED_KINDS.map((kind) => [kind, new Set(inline[kind])])) as Record<Kind, Set<string>>;
  for (const item of items) {
    const sk = String(item.sk);
    if (!sk.startsWith(PREFIX)) continue;
    const kind = LEARNED_KINDS.find((known) => sk.startsWith(`${PREFIX}${known}#`));
    if (kind && typeof item.value === 'string') learned[kind].add(item.value);
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
