import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { httpError } from './errors.js';

/**
 * The rules every JSON-body operation applies before its body is read (docs/api.md, "Bases, envelopes, errors"):
 * - the body is sent as `Content-Type: application/json` (parameters such as `charset=utf-8` are allowed);
 *   another media type is 415. A request without a Content-Type is accepted only with an empty body, which is
 *   read as `{}` (so operations whose body is all-optional can be called without one); any body without a
 *   Content-Type is 415;
 * - the body is at most JSON_BODY_LIMIT bytes; a larger one is 413, from its Content-Length or, without one,
 *   as soon as the stream passes the limit (Hono's `bodyLimit`), never parsed.
 * The Content-Type header and the size are checked before the token is verified, so an oversized or mistyped
 * body costs no token check or read.
 */
export const JSON_BODY_LIMIT = 256 * 1024;
export const JSON_BODY_LIMIT_TEXT = '256 KiB (262,144 bytes)';

/** What the OpenAPI document lists for every JSON-body operation (core/http/policy-text.ts errorsOf). */
export const jsonBodyErrors = {
  413: `the body is larger than ${JSON_BODY_LIMIT_TEXT}`,
  415: 'the body is not sent with Content-Type: application/json',
} as const;

export const payloadTooLarge = () => httpError('body.too_large', `body: larger than the ${JSON_BODY_LIMIT_TEXT} a JSON body may be`);
export const unsupportedType = (type: string | undefined) =>
  httpError(
    'body.unsupported_type',
    type === undefined ? 'body: a body needs Content-Type: application/json' : `body: Content-Type must be application/json, not ${type.slice(0, 100)}`,
  );

/** `application/json`, with or without parameters, in any letter case. */
export function isJsonType(header: string): boolean {
  return mediaTypeOf(header) === 'application/json';
}

/** The media type of a Content-Type header, without its parameters, in lower case. */
export const mediaTypeOf = (header: string) => header.split(';', 1)[0]!.trim().toLowerCase();

const limit = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw payloadTooLarge();
  },
});

/**
 * Applies the rules inside the operation's handler (core/http/app.ts createGroupApp), so that each operation
 * stays one Hono route. Hono's `bodyLimit` either throws (413) or, having buffered a body that was streamed
 * without a Content-Length, replaces the request with one holding it and calls `next`.
 */
export async function applyJsonBodyRules(c: Context): Promise<void> {
  const type = c.req.header('content-type');
  if (type !== undefined && !isJsonType(type)) throw unsupportedType(type);
  await applyBodyLimit(c);
}

/** A body of at most JSON_BODY_LIMIT bytes, or 413 (the JSON and form body rules both apply it). */
export async function applyBodyLimit(c: Context): Promise<void> {
  let passed = false;
  await limit(c, async () => {
    passed = true;
  });
  if (!passed) throw payloadTooLarge();
}

/**
 * How deep a JSON body may nest arrays and objects (the body's own object is level 1). RFC 8259 §9 lets a parser
 * set this limit; it is explicit so that a deep body is refused for its depth, the same way wherever it is
 * parsed. Without it the limit was where the reviver of parseJsonExact, which recurses once per level, ran out
 * of stack (a few thousand levels, depending on the stack), and the valid JSON was answered "must be valid
 * JSON". No operation's body nests deeper than 3 levels.
 */
export const JSON_NESTING_LIMIT = 64;

/** Thrown by parseJsonExact for valid JSON nested deeper than JSON_NESTING_LIMIT. */
export class JsonTooDeep extends Error {
  constructor() {
    super(`nested deeper than the ${JSON_NESTING_LIMIT} levels of arrays and objects a JSON body may have`);
  }
}

/** A JSON body's value, or 400 naming what is wrong with its text: not JSON, or nested too deep. */
export function parseJsonBody(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch (error) {
    throw httpError('body.malformed', error instanceof JsonTooDeep ? `body: ${error.message}` : 'body: must be valid JSON');
  }
}

/**
 * JSON.parse, except that an integer literal past 2^53 becomes a bigint of its exact digits instead of the
 * nearest double (a u64 amount in base units: core/shared/amounts.ts). Node 22+ hands the reviver each
 * literal's source text. Every schema but `baseUnits` refuses a bigint with a 400, so no other field changes.
 * Valid JSON nested deeper than JSON_NESTING_LIMIT throws JsonTooDeep; invalid JSON, however deep, SyntaxError.
 */
export function parseJsonExact(text: string): unknown {
  if (nestingOf(text) > JSON_NESTING_LIMIT) {
    // Whether the text is JSON at all decides the answer; V8's JSON.parse without a reviver does not recurse.
    JSON.parse(text);
    throw new JsonTooDeep();
  }
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  } as (this: unknown, key: string, value: unknown) => unknown);
}

/**
 * The deepest nesting of arrays and objects in a JSON text, brackets inside strings not counted, in one pass
 * without recursion. Exact for valid JSON; for any other text only an estimate (JSON.parse then refuses it).
 */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
