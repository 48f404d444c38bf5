import * as z from 'zod/mini';
import { EXAMPLE } from './examples.js';

/**
 * Amounts in a coin's base units are u64 on chain (a coin may have 18 decimals, so 0.01 of it is already past
 * 2^53). They are exact everywhere (docs/api.md, "Amounts"):
 * - in a request, an amount may be a JSON integer of any size (the body is parsed exactly: core/http/app.ts
 *   `parseJsonExact`) or decimal text; either way it reaches the handler as canonical decimal text;
 * - in code, decimal text or bigint, never a float;
 * - in the table, a DynamoDB number (exact to 38 digits); the document client reads one past 2^53 as a bigint;
 * - in a response, decimal text in new fields; an existing integer field of the contract (`reward_amount`) stays a
 *   JSON integer, written exactly (`jsonInteger`).
 */
export const U64_MAX = 2n ** 64n - 1n;

/** Decimal digits of a u64: no sign, no leading zeros (but `0`), at most 20 digits. */
const U64_TEXT = /^(?:0|[1-9][0-9]{0,19})$/;

/** The schemas `baseUnits` made: the OpenAPI document describes them (core/http/openapi.ts). */
const baseUnitSchemas = new WeakMap<object, { min: bigint; max: bigint }>();

/**
 * A request field of an amount in base units, within [min, max] (default 1 to u64's maximum): a JSON integer
 * (exact, any size) or decimal text. The handler gets canonical decimal text (`'0012'` is refused, not read as
 * 12). Anything else, a fraction, a sign or an amount out of range, is a 400 naming the field.
 *
 * Built as a transform piped into a string, like `intParam`: the OpenAPI document replaces its schema with
 * "integer or decimal text" (`baseUnitsJsonSchema`).
 */
export function baseUnits({ min = 1n, max = U64_MAX }: { min?: bigint; max?: bigint } = {}) {
  const range = `an integer from ${min} to ${max} (base units), as a JSON integer or decimal text`;
  const canonical = z.transform((input: unknown, ctx) => {
    const text =
      typeof input === 'bigint'
        ? input.toString()
        : typeof input === 'number' && Number.isSafeInteger(input)
          ? String(input)
          : typeof input === 'string' && U64_TEXT.test(input)
            ? input
            : undefined;
    if (text !== undefined && !text.startsWith('-')) {
      const value = BigInt(text);
      if (value >= min && value <= max) return text;
    }
    ctx.issues.push({ code: 'custom', input, message: `expected ${range}` });
    return z.NEVER;
  });
  const schema = z.pipe(canonical, z.string());
  baseUnitSchemas.set(schema, { min, max });
  return schema;
}

/** The JSON Schema of a `baseUnits` field (undefined for any other schema). */
export function baseUnitsJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  const range = typeof schema === 'object' && schema !== null ? baseUnitSchemas.get(schema) : undefined;
  if (!range) return undefined;
  // The reference's example (core/shared/examples.ts), in the field's range: as a JSON integer and as text.
  const sample = BigInt(EXAMPLE.baseUnits) < range.min ? range.min : BigInt(EXAMPLE.baseUnits) > range.max ? range.max : BigInt(EXAMPLE.baseUnits);
  return {
    description: `Base units, from ${range.min} to ${range.max}: a JSON integer (read exactly, whatever its size) or the same integer as decimal text.`,
    anyOf: [
      { type: 'integer', minimum: Number(range.min) },
      { type: 'string', pattern: '^(0|[1-9][0-9]{0,19})$' },
    ],
    examples: [Number(sample), String(sample)],
  };
}

const exactIntegerSchemas = new WeakSet<object>();

/**
 * An amount the service answers as a JSON integer written exactly, whatever its size (beside it, the same amount
 * as decimal text in a `_base` field, for parsers that round past 2^53). Its JSON Schema is an integer with no
 * upper bound (`exactIntegerJsonSchema`), as the answers are.
 */
export function exactInteger() {
  const schema = z.int();
  exactIntegerSchemas.add(schema);
  return schema;
}

/** The JSON Schema of an `exactInteger` field (undefined for any other schema). */
export function exactIntegerJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null || !exactIntegerSchemas.has(schema)) return undefined;
  return { type: 'integer', minimum: 0, description: 'Base units: an integer written exactly, whatever its size.', examples: [Number(EXAMPLE.baseUnits)] };
}

/** An amount as stored: a DynamoDB number (read as a number, or a bigint past 2^53), or decimal text in items
 * written before amounts were numbers. Read it with `toBigInt`. */
export const storedAmount = z.union([z.number(), z.bigint(), z.string()]);

/** An amount as the table or the chain holds it (number, bigint or decimal text), as a bigint. */
export const toBigInt = (value: unknown): bigint => {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an integer amount: ${String(value)}`);
};

/** The `JSON.rawJSON` of Node 22+ (not yet in TypeScript's lib): a value JSON.stringify writes verbatim. */
const rawJSON = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

/**
 * An integer for a response field the compatibility contract fixes as a JSON integer (docs/api.md, "The
 * compatibility contract"): a number while it is exact as one, else the
 * integer's digits written verbatim (JSON has no size limit; a JavaScript client needs a parser that keeps them,
 * which is why new fields carry decimal text instead).
 */
export function jsonInteger(value: unknown): number {
  const exact = toBigInt(value);
  if (exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(exact);
  return rawJSON(exact.toString()) as number;
}
