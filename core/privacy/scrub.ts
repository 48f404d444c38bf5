import type { Item, ItemKey } from '../platform/batch.js';
import type { TransactItem } from '../platform/transactions.js';

/**
 * What a kept record must no longer hold, and what takes its place. Identifiers (the uid, the wallet address
 * with and without its 0x) are replaced wherever they occur inside a text, keys included: they are long and
 * random, so they never occur by chance. Names are replaced only where a whole text is the name: a short name
 * could be part of any other text.
 */
export interface Personal {
  identifiers: string[];
  names: string[];
  pseudonym: string;
}

const INDEX_ATTRIBUTES = /^gsi\d+(pk|sk)$/;

/** A copy of `value` with every personal value replaced by the pseudonym (names by ''). */
export function scrubbed(value: unknown, personal: Personal): unknown {
  if (typeof value === 'string') {
    if (personal.names.includes(value)) return '';
    let text = value;
    for (const identifier of personal.identifiers) if (identifier.length > 0) text = text.split(identifier).join(personal.pseudonym);
    return text;
  }
  if (Array.isArray(value)) return value.map((element) => scrubbed(element, personal));
  if (value instanceof Set) return new Set([...value].map((element) => scrubbed(element, personal)));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, scrubbed(inner, personal)]));
  }
  return value;
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

/** A delete of `item` on condition it is still the one read. */
export function deleteUnchanged(table: string, item: Item): TransactItem {
  return { Delete: { TableName: table, Key: keyOf(item), ...unchanged(item) } };
}

/**
 * The condition that the stored item is the one read: each of its scalar attributes as read (the state a
 * concurrent writer changes: a status, a version, a balance, a time), and that it exists. Index attributes are
 * left out: they follow the others.
 */
function unchanged(item: Item) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = ['attribute_exists(pk)'];
  let n = 0;
  for (const [name, value] of Object.entries(item)) {
    if (name === 'pk' || name === 'sk' || INDEX_ATTRIBUTES.test(name)) continue;
    if (!['string', 'number', 'boolean'].includes(typeof value)) continue;
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
