import fc from 'fast-check';
import * as z from 'zod/mini';

/**
 * fast-check arbitraries from the route table's own schemas, through the JSON Schema the OpenAPI document is made
 * of (`z.toJSONSchema`, input side): values that mostly pass the schema (refinements JSON Schema cannot say may
 * still fail them; the generated-input test asks the schema itself which values are valid), and the ways of
 * breaking one (wrong types, missing and extra fields, huge and hostile strings, numbers past 2^53, prototype keys).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonSchema = Record<string, any>;

/** The JSON Schema of an operation's input schema, as the reference documents it. */
export const jsonSchemaOf = (schema: z.ZodMiniType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid({ version: 4 }),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl({ withQueryParameters: true, withFragments: true }),
};

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 64;
  const min = schema.minLength ?? 0;
  // Only the lengths the schema declares (a pattern sets its own: `^0x[0-9a-f]{64}$` is 66 long).
  const fits = (s: string) => s.length >= min && (schema.maxLength === undefined || s.length <= max);
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format]!().filter(fits);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    try {
      return fc.stringMatching(pattern).filter(fits);
    } catch {
      // A pattern fast-check cannot generate from (lookaheads): any text it accepts, with a fixed fallback.
      return fc.string({ minLength: min, maxLength: Math.min(max, 40) }).map((s) => (pattern.test(s) ? s : 'a'.repeat(Math.max(min, 1))));
    }
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: 'grapheme' });
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : (schema.minimum ?? -1e6);
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? 1e9);
  if (integer) return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values of the schema (mostly: see above). */
export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as JsonSchema[]).map(arbitraryOf));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object':
      return objectArbitrary(schema);
    default:
      return jsonValue;
  }
}

function objectArbitrary(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  if (Object.keys(properties).length === 0 && typeof schema.additionalProperties === 'object') {
    // A map (z.record): names of propertyNames, values of additionalProperties.
    const names = schema.propertyNames ? arbitraryOf(schema.propertyNames) : fc.string({ minLength: 1, maxLength: 16 });
    return fc.dictionary(names as fc.Arbitrary<string>, arbitraryOf(schema.additionalProperties), { maxKeys: Math.min(schema.maxProperties ?? 3, 3) });
  }
  const required = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property)]));
  return fc.record(required, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Any small JSON value. */
export const jsonValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

/** A value no schema of a field of another type takes, or hostile even where the type is right. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, '', [], {}, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1e308, Number.MIN_VALUE, 'null', 'true', '0x', ' '),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\u0007', '\u001b', '\u202e', '\u200b', '\ud800', '\uffff', '"', '\\', '\n', '<', '%00'),
    minLength: 1,
    maxLength: 20,
  }),
  fc.nat({ max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.nat({ max: 6_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 1, max: 2_000 }).map((depth) => nested(depth)),
  jsonValue,
);

/** `depth` arrays each inside the next. */
export const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};

/** Keys an object body may carry that name something of JavaScript's own rather than a field. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;
