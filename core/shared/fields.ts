import * as z from 'zod/mini';
import { EXAMPLE, example } from './examples.js';

/** Field rules shared by several domains' models, each with the example the API reference shows (./examples.ts). */

export const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
export const requiredText = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
/**
 * An http or https URL. JSON Schema's `uri` format allows any scheme, so the schema also states the scheme rule as
 * a pattern (what `protocol` checks: the text before the first colon, in any case).
 */
export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  .check(z.maxLength(2048), z.meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' }), example(EXAMPLE.url));

/** A relative path of a stored file (what save_file returns): no leading slash, no `..`, no scheme. */
export const relativePath = z
  .string()
  .check(
    z.maxLength(512),
    z.regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/, 'expected a relative file path such as merchant/1/logo.png'),
    example(EXAMPLE.filePath),
  );

/** A game code: unique platform-wide, used in URLs and token claims. */
export const gameCode = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1-64 letters, digits, _ or -'), example(EXAMPLE.gameCode));

export const email = z.email().check(z.maxLength(254), z.toLowerCase(), example(EXAMPLE.email));

/** The schemas `intParam` made (see isIntParam). */
const intParams = new WeakSet<object>();

/** The one spelling of an integer in a query or a path: an optional `-` and decimal digits, no leading zeros. */
const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * An integer query or path parameter, parsed strictly (docs/api.md, "Bases, envelopes, errors"): the text must be an
 * optional `-` and decimal digits without leading zeros (`0`, `12`, `-3`), and the number within [min, max].
 * `''`, `0x10`, `1e1`, `+1`, `' 1'`, `1.0`, `01` and `-0` are refused with a 400 naming the field, where
 * `z.coerce.number` took them.
 *
 * Built as a transform piped into `z.int()`: zod's JSON Schema generator describes a pipe that starts with a
 * transform by its output side for `io: 'input'`, so the OpenAPI document shows `{type: integer, minimum,
 * maximum}` (the parameter's type as OpenAPI means it), while the text is checked first.
 */
export function intParam({ min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}) {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) throw new Error(`intParam: bad range [${min}, ${max}]`);
  const range =
    max === Number.MAX_SAFE_INTEGER
      ? min === -Number.MAX_SAFE_INTEGER
        ? 'a safe integer'
        : `an integer of at least ${min}`
      : `an integer from ${min} to ${max}`;
  const digits = z.transform((input: unknown, ctx) => {
    if (typeof input === 'string' && INTEGER_TEXT.test(input)) return Number(input);
    ctx.issues.push({ code: 'custom', input, message: `expected ${range} in decimal digits (an optional -, no sign +, spaces or leading zeros)` });
    return z.NEVER;
  });
  const schema = z.pipe(digits, z.int({ error: `expected ${range}` }).check(z.minimum(min, `expected ${range}`), z.maximum(max, `expected ${range}`)));
  intParams.add(schema);
  return schema;
}

/**
 * Whether a schema is an `intParam`. zod leaves the `default` of a transforming schema out of an input JSON
 * Schema (a default is an output value); for these the output is the parameter's meaning, so the OpenAPI
 * document (core/http/openapi.ts) puts the default back.
 */
export const isIntParam = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && intParams.has(schema);

/**
 * An update's body must change something: at least one of `fields` is given, else a 400 naming the body,
 * `body: nothing to change: give at least one of a, b, c`. JSON Schema cannot say it in a form client generators
 * keep: each field states it in its description (`oneOfTheChanges`).
 */
export const atLeastOneOf = <T extends object>(fields: readonly (keyof T & string)[]) =>
  z.refine<T>((value) => fields.some((field) => value[field] !== undefined), `nothing to change: give at least one of ${fields.join(', ')}`);

/** The description of each field atLeastOneOf names. */
export const oneOfTheChanges = (fields: readonly string[]) =>
  z.describe(`One of the changes: give at least one of ${fields.join(', ')} (a body that changes nothing is 400).`);

/**
 * Zero-based page and page size of list operations (pageSize default 20, max 100). Pages past
 * MAX_PAGE are refused: a list reads (page + 1) * pageSize entries (DynamoDB has no offset), and a page of
 * 2^53 once asked DynamoDB for a read limit it refuses.
 */
export const MAX_PAGE = 10_000;
export const paging = {
  page: z._default(intParam({ min: 0, max: MAX_PAGE }), 0),
  pageSize: z._default(intParam({ min: 1, max: 100 }), 20),
};

/**
 * A page's cursor as a query parameter: opaque text a previous page answered (Base64url). Whether it is one of
 * ours, and the caller's, is the domain's check (core/platform/cursors.ts): 400 naming `cursor` when not.
 */
export const pageCursor = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,2048}$/, 'expected the `next` of a previous page'), example(EXAMPLE.cursor));

/**
 * Fields of answers, by kind: text as the service writes it, with the kind's example for the reference. Answers are
 * not parsed, so these state no rule a stored value might miss; they name what the text is.
 */
export const answered = {
  /** An ISO 8601 UTC time. */
  time: z.string().check(example(EXAMPLE.time)),
  /** A Sui address, in lower case. */
  address: z.string().check(example(EXAMPLE.address)),
  /** The other side of a payment (its recipient, when `address` is its sender). */
  recipient: z.string().check(example(EXAMPLE.otherAddress)),
  /** A Sui object id: a game's shared object, a Move package, a hero NFT. */
  objectId: z.string().check(example(EXAMPLE.objectId)),
  email: z.string().check(example(EXAMPLE.email)),
  gameCode: z.string().check(example(EXAMPLE.gameCode)),
  gameName: z.string().check(example(EXAMPLE.gameName)),
  projectName: z.string().check(example(EXAMPLE.projectName)),
  coinType: z.string().check(example(EXAMPLE.coinType)),
  /** An amount in a coin's base units: an integer as decimal text, exact to u64. */
  baseUnits: z.string().check(example(EXAMPLE.baseUnits)),
  /** An amount in coins, as decimal text with the coin's decimals. */
  coins: z.string().check(example(EXAMPLE.coins)),
  /** A platform user's id (a UUID). */
  userId: z.string().check(example(EXAMPLE.userId)),
  /** A console account's id (a UUID). */
  accountId: z.string().check(example(EXAMPLE.accountId)),
  /** Another record's UUID. */
  uuid: z.string().check(example(EXAMPLE.uuid)),
  billNo: z.string().check(example(EXAMPLE.billNo)),
  txDigest: z.string().check(example(EXAMPLE.txDigest)),
  /** A token this service issues. */
  accessToken: z.string().check(example(EXAMPLE.accessToken)),
  /** The `next` of a page: pass it as `cursor` for the page after. */
  cursor: z.string().check(example(EXAMPLE.cursor)),
  url: z.string().check(example(EXAMPLE.url)),
  imageUrl: z.string().check(example(EXAMPLE.imageUrl)),
  filePath: z.string().check(example(EXAMPLE.filePath)),
  playerId: z.string().check(example(EXAMPLE.playerId)),
  playerName: z.string().check(example(EXAMPLE.playerName)),
  seasonRange: z.string().check(example(EXAMPLE.seasonRange)),
};
