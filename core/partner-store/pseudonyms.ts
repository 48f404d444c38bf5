/**
 * A store user's deletion keeps their accounting records under a pseudonym (core/platform/players.ts
 * `newPseudonym`, core/partner-store/deletion.ts): the kept records of one former user reconcile together, but
 * lead to no person.
 */

/** What a kept record must no longer hold, and what takes its place. */
export interface Personal {
  /** The store uid: random and long, so it is replaced wherever it occurs inside a text, keys included. */
  uid: string;
  /**
   * The partner's user id and the user's name: any text at all (a partner's id may be `42`), so only a value that
   * is one of them as a whole is replaced; inside another text they could be a part of anything.
   */
  whole: string[];
  pseudonym: string;
}

/**
 * Attributes whose values come from the store's own catalogues (an item's kind, a currency or item code), never
 * from a person: a partner user id that happens to read `coin` must not rename the currency.
 */
const CATALOGUE_ATTRIBUTES = new Set(['type', 'holding', 'code']);

/** A copy of `value` with every personal value replaced by the pseudonym. */
export function scrubbed(value: unknown, personal: Personal, attribute?: string): unknown {
  if (typeof value === 'string') {
    if (attribute !== undefined && CATALOGUE_ATTRIBUTES.has(attribute)) return value;
    if (personal.whole.includes(value)) return personal.pseudonym;
    return value.split(personal.uid).join(personal.pseudonym);
  }
  if (Array.isArray(value)) return value.map((element) => scrubbed(element, personal));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, scrubbed(inner, personal, name)]));
  }
  return value;
}
