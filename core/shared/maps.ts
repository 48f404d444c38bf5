import * as z from 'zod/mini';

/**
 * A map a client sends (a game's `link`, a player's saved parameters): bounded in entries, key and value, and
 * safe whatever the keys are (docs/api.md, "Maps and lists from clients").
 *
 * Keys are names, never `__proto__`, `constructor` or `prototype`: such a key is refused with a 400 naming it
 * (`body.link.constructor: a reserved name …`). Stored, they break in ways that have nothing to do with the
 * data: an own `__proto__` property is dropped by every copy of the object (the record parser included, so the
 * entry would vanish without a word), and an own `constructor` makes the DynamoDB marshaller take the map for
 * a class instance and throw. Refusing is also what a client expects of a name that means nothing.
 *
 * The raw object is checked first (a transform at the head of a pipe sees JSON.parse's own `__proto__`
 * property, which the record parser never would), then parsed as a record; the OpenAPI document shows the
 * record with `propertyNames`, `additionalProperties` and `maxProperties`.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function clientMap<V extends z.ZodMiniType>(options: {
  /** What a key must look like, and the message when it does not. */
  key: { pattern: RegExp; message: string };
  value: V;
  maxEntries: number;
}) {
  const { key, value, maxEntries } = options;
  const guard = z.transform((input: unknown, ctx) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input; // the record says what it expected
    const keys = Object.getOwnPropertyNames(input);
    const reserved = keys.find((name) => RESERVED_KEYS.has(name));
    if (reserved !== undefined) {
      ctx.issues.push({ code: 'custom', input, path: [reserved], message: `a reserved name; keys may not be __proto__, constructor or prototype` });
      return z.NEVER;
    }
    const malformed = keys.find((name) => !key.pattern.test(name));
    if (malformed !== undefined) {
      ctx.issues.push({ code: 'custom', input, path: [malformed], message: `not a valid key: ${key.message}` });
      return z.NEVER;
    }
    if (keys.length > maxEntries) {
      ctx.issues.push({ code: 'custom', input, message: `at most ${maxEntries} entries, got ${keys.length}` });
      return z.NEVER;
    }
    return input;
  });
  const record = z.record(z.string().check(z.regex(key.pattern, key.message)), value);
  // JSON Schema keywords given as metadata are copied into the generated schema.
  z.globalRegistry.add(record, { maxProperties: maxEntries } as Parameters<typeof z.globalRegistry.add>[1]);
  return z.pipe(guard, record);
}
