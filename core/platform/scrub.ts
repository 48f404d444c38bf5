import type { Item, ItemKey } from './batch.js';
import type { TransactItem } from './transactions.js';

/**
 * What a deletion's kept records must no longer hold, and what takes their place (core/platform/erase-round.ts).
 * Identifiers (a player's uid and wallet address with and without its 0x, a store user's uid) are replaced by the
 * pseudonym wherever they occur inside a text, keys included: they are long and random, so they never occur by
 * chance. Names (a player's names on boards, a store user's name and their partner's user id) are any text at all,
 * so only a text that is one as a whole becomes '', and never in an attribute whose values come from the platform's
 * own catalogues: a player named `ledger` or a partner's user `coin` must not rename an item's kind or a currency.
 */
export interface Personal {
  identifiers: readonly string[];
  names: readonly string[];
  pseudonym: string;
}

/** Attributes whose values are the platform's own (kinds, codes, projects, games, states), never a person's. */
const CATALOGUE_ATTRIBUTES = new Set(['type', 'holding', 'code', 'projectName', 'project_name', 'game_code', 'status', 'coin_type']);

const INDEX_ATTRIBUTES = /^gsi\d+(pk|sk)$/;

/**
 * A copy of `value` with every personal value replaced. A kept answer's JSON text (core/platform/kept-answers.ts,
 * an attribute `<name>_json`) is scrubbed as the value it holds, so that a whole name inside it goes too.
 */
export function scrubbed(value: unknown, personal: Personal, attribute?: string): unknown {
  if (typeof value === 'string') {
    if (attribute !== undefined && CATALOGUE_ATTRIBUTES.has(attribute)) return value;
    if (attribute?.endsWith('_json')) {
      const held = parsed(value);
      if (held.ok) return JSON.stringify(scrubbed(held.value, personal));
    }
    if (personal.names.includes(value)) return '';
    let text = value;
    for (const identifier of personal.identifiers) if (identifier.length > 0) text = text.split(identifier).join(personal.pseudonym);
    return text;
  }
  if (Array.isArray(value)) return value.map((element) => scrubbed(element, personal));
  if (value instanceof Set) return new Set([...value].map((element) => scrubbed(element, personal)));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, scrubbed(inner, personal, name)]));
  }
  return value;
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const keyOf = (item: Item): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });
const sameKey = (a: ItemKey, b: ItemKey) => a.pk === b.pk && a.sk === b.sk;

/**
 * The writes that keep `item` pseudonymized: the scrubbed item put in its place (on condition the stored item is
 * still the one read, so a concurrent change is never overwritten), or, when its key held a personal value, put
 * under its new key with the old one deleted. `drop` names attributes the kept record loses altogether, `set`
 * attributes it gets. None when there is nothing to change.
 */
export function keepScrubbed(table: string, item: Item, personal: Personal, drop: readonly string[] = [], set: Item = {}): TransactItem[] {
  const trimmed = Object.fromEntries(Object.entries(item).filter(([name]) => !drop.includes(name)));
  const kept = scrubbed({ ...trimmed, ...set }, personal) as Item;
  if (JSON.stringify(kept) === JSON.stringify(item)) return [];
  const [from, to] = [keyOf(item), keyOf(kept)];
  if (sameKey(from, to)) return [{ Put: { TableName: table, Item: kept, ...unchanged(item) } }];
  return [
    { Put: { TableName: table, Item: kept, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: { TableName: table, Key: from, ...unchanged(item) } },
  ];
}

/**
 * A delete of `item` on condition it is still the one read; with `documents`, its lists and maps as read too, for a
 * delete that keeps what they hold elsewhere (a forfeited balance's held ledger entries: core/platform/erase-round.ts).
 */
export function deleteUnchanged(table: string, item: Item, { documents = false } = {}): TransactItem {
  return { Delete: { TableName: table, Key: keyOf(item), ...unchanged(item, documents) } };
}

/**
 * The condition that the stored item is the one read: each of its scalar attributes as read (the state a
 * concurrent writer changes: a status, a version, a balance, a time), and that it exists. Index attributes are
 * left out: they follow the others. With `documents`, its lists and maps are compared whole too.
 */
function unchanged(item: Item, documents = false) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = ['attribute_exists(pk)'];
  let n = 0;
  for (const [name, value] of Object.entries(item)) {
    if (name === 'pk' || name === 'sk' || INDEX_ATTRIBUTES.test(name)) continue;
    if (!['string', 'number', 'boolean'].includes(typeof value) && !(documents && isDocument(value))) continue;
    n++;
    names[`#a${n}`] = name;
    values[`:a${n}`] = value;
    terms.push(`#a${n} = :a${n}`);
  }
  return {
    ConditionExpression: terms.join(' AND '),
    ...(n > 0 ? { ExpressionAttributeNames: names, ExpressionAttributeValues: values } : {}),
  };
}

/** A list or a map as the document client reads them (a set or binary is neither). */
const isDocument = (value: unknown) =>
  Array.isArray(value) || (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype);
