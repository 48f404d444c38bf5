import fc from 'fast-check';
import { tryDecodeURIComponent } from 'hono/utils/url';
import { JSON_BODY_LIMIT, parseJsonExact } from '../../core/http/json-body.js';
import type { OperationSpec, RouteGroup } from '../../core/http/operation.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../core/platform/idempotency-key.js';
import { routeTable } from '../../functions/routes/index.js';
import { arbitraryOf, hostileValue, jsonSchemaOf, jsonValue, PROTOTYPE_KEYS, type JsonSchema } from './schema-arbitraries.js';

/**
 * The generated-input test's requests (test/generated-input.test.ts): for each operation of the route table, valid
 * input from its schemas and the ways of breaking it, and the oracle: the refusal the HTTP layer must give a
 * request, computed from the operation's own schemas in the order the layer checks (core/http/app.ts).
 */

interface Input {
  params: Record<string, string>;
  query: [string, string][];
  /** The body as the client means it: an object's entries in order (so `__proto__` and repeated keys survive). */
  body?: [string, unknown][];
}

export interface Attempt extends Input {
  mutation: string;
  /** The body's text when a mutation wrote it by hand (malformed JSON, big literals, deep nesting). */
  rawBody?: string;
  /** undefined: the JSON (or form) default; null: none. */
  contentType?: string | null;
  headers: Record<string, string>;
}

export interface Route {
  group: RouteGroup;
  op: OperationSpec;
  schemas: { params?: JsonSchema; query?: JsonSchema; body?: JsonSchema };
}

export const routes: Route[] = routeTable.flatMap((group) =>
  Object.values(group.ops).map((op) => ({
    group,
    op,
    schemas: {
      params: op.params && jsonSchemaOf(op.params),
      query: op.query && jsonSchemaOf(op.query),
      body: op.body && op.body !== 'multipart' ? jsonSchemaOf(op.body) : undefined,
    },
  })),
);

export const isJson = (op: OperationSpec) => op.body !== undefined && op.body !== 'multipart' && op.bodyType !== 'form';
const entriesOf = (value: unknown): [string, unknown][] => (value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : []);
const stringEntries = (value: unknown): [string, string][] =>
  entriesOf(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)]);
const propertyNames = (schema: JsonSchema | undefined) => Object.keys(schema?.properties ?? {});

function validInput(route: Route, deploymentStage: string): fc.Arbitrary<Input> {
  const { params, query, body } = route.schemas;
  const stage = route.group.base === 'root' ? { stage: deploymentStage } : {};
  return fc.record({
    params: params ? arbitraryOf(params).map((v) => ({ ...Object.fromEntries(stringEntries(v)), ...stage })) : fc.constant({}),
    query: query ? arbitraryOf(query).map(stringEntries) : fc.constant([]),
    body: body ? arbitraryOf(body).map(entriesOf) : fc.constant(undefined),
  });
}

/** A field to break: one the schema names, or one the valid input carries. */
const fieldOf = (schema: JsonSchema | undefined, present: [string, unknown][]) => {
  const names = [...new Set([...propertyNames(schema), ...present.map(([k]) => k)])];
  return names.length > 0 ? fc.constantFrom(...names) : fc.constant('field');
};

const hostileText = hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'x')));

const replace = <T>(entries: [string, T][], name: string, value: T): [string, T][] =>
  entries.some(([k]) => k === name) ? entries.map(([k, v]) => [k, k === name ? value : v]) : [...entries, [name, value]];

/** The mutations that apply to a route, each a function of its valid input. */
function mutations(route: Route, input: Input): fc.Arbitrary<Attempt>[] {
  const { op, schemas } = route;
  const same = (mutation: string, change: Partial<Attempt>): Attempt => ({ ...input, headers: {}, mutation, ...change });
  const list: fc.Arbitrary<Attempt>[] = [fc.constant(same('valid', {}))];
  if (schemas.body) {
    const body = input.body ?? [];
    list.push(
      fieldOf(schemas.body, body).map((name) => same(`body.${name} missing`, { body: body.filter(([k]) => k !== name) })),
      fc.tuple(fieldOf(schemas.body, body), hostileValue).map(([name, value]) => same(`body.${name} replaced`, { body: replace(body, name, value) })),
      fc
        .tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 20 })), jsonValue)
        .map(([name, value]) => same(`extra body field ${JSON.stringify(name)}`, { body: [[name, value], ...body] })),
    );
    // Nested objects and arrays: break a field one level down.
    const deeper = body.filter(([, v]) => v !== null && typeof v === 'object');
    if (deeper.length > 0) {
      list.push(
        fc.tuple(fc.constantFrom(...deeper), hostileValue).map(([[name, value], hostile]) => {
          const inner = Array.isArray(value) ? [hostile, ...value.slice(1)] : { ...(value as object), [Object.keys(value as object)[0] ?? 'x']: hostile };
          return same(`body.${name} inner value replaced`, { body: replace(body, name, inner) });
        }),
      );
    }
    if (isJson(op)) {
      const text = serialize(body);
      list.push(
        fc
          .oneof(
            fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((cut) => text.slice(0, cut)),
            fc.constantFrom('{', '{"a":}', '[1,]', "{'a':1}", 'NaN', 'undefined', '{"a":1}}', '\u0000', '{"a":1,}', '01', '"\\x"', '\ufeff{}'),
          )
          .map((raw) => same('malformed JSON', { rawBody: raw })),
        fc.constantFrom('[]', '"text"', '1', 'null', 'true', '[{}]').map((raw) => same('a body that is not an object', { rawBody: raw })),
        fc
          .tuple(
            fieldOf(schemas.body, body),
            fc.constantFrom(
              '9007199254740993',
              '-9007199254740993',
              '18446744073709551616',
              '1e400',
              '-1e400',
              '1.0',
              '-0',
              '1e2',
              '0.1e1',
              '123456789012345678901234567890',
            ),
          )
          .map(([name, literal]) => same(`body.${name} as the literal ${literal}`, { rawBody: serialize(replace(body, name, RAW(literal))) })),
        fc
          .tuple(fieldOf(schemas.body, body), fc.integer({ min: 1_000, max: 100_000 }))
          .map(([name, depth]) =>
            same(`body.${name} nested ${depth} deep`, { rawBody: serialize(replace(body, name, RAW('['.repeat(depth) + ']'.repeat(depth)))) }),
          ),
        fc
          .tuple(fieldOf(schemas.body, body), hostileValue)
          .map(([name, value]) => same(`body.${name} given twice`, { rawBody: serialize([...body, [name, value]]) })),
        fc.constant(same('__proto__ holding fields', { rawBody: serialize([['__proto__', Object.fromEntries(body)]]) })),
      );
    }
    if (op.bodyType === 'form') {
      list.push(
        fc
          .tuple(fieldOf(schemas.body, body), hostileText)
          .map(([name, value]) => same(`body.${name} given twice`, { rawBody: formText([...stringEntries(Object.fromEntries(body)), [name, value]]) })),
      );
    }
  }
  if (op.body !== undefined) {
    list.push(
      fc
        .constantFrom<string | null>(
          null,
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json-patch+json',
          'application/jsonx',
          'application/xml',
          'text/json',
          '*/*',
        )
        .map((type) => same(`Content-Type ${type}`, { contentType: type, rawBody: isJson(op) || op.bodyType === 'form' ? undefined : 'x' })),
      fc.constant(same('oversized body', { rawBody: `{"pad":"${'x'.repeat(JSON_BODY_LIMIT)}"}` })),
    );
  }
  if (schemas.query) {
    list.push(
      fieldOf(schemas.query, input.query).map((name) => same(`query.${name} missing`, { query: input.query.filter(([k]) => k !== name) })),
      fc
        .tuple(fieldOf(schemas.query, input.query), hostileText)
        .map(([name, value]) => same(`query.${name} replaced`, { query: replace(input.query, name, value) })),
      fc
        .tuple(fieldOf(schemas.query, input.query), hostileText)
        .map(([name, value]) => same(`query.${name} given twice`, { query: [...input.query, [name, value]] })),
      fc
        .tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ minLength: 1, maxLength: 20 })), hostileText)
        .map(([name, value]) => same(`extra query parameter ${JSON.stringify(name)}`, { query: [...input.query, [name, value]] })),
    );
  }
  const pathNames = Object.keys(input.params);
  if (pathNames.length > 0) {
    list.push(
      fc
        .tuple(
          fc.constantFrom(...pathNames),
          hostileText.filter((v) => v !== ''),
        )
        .map(([name, value]) => same(`path.${name} replaced`, { params: { ...input.params, [name]: value } })),
    );
  }
  if (op.headers?.['Idempotency-Key']) {
    list.push(
      fc
        .oneof(
          fc.constantFrom('', ' ', '"', '""', 'a b', 'a/b', 'a,b', '"a', 'x'.repeat(129), 'é'),
          hostileText.filter((v) => /^[\x20-\x7e]*$/.test(v)),
        )
        .map((key) => same(`Idempotency-Key ${JSON.stringify(key.slice(0, 20))}`, { headers: { 'Idempotency-Key': key } })),
    );
  }
  return list;
}

/** A JSON literal written as is (big numbers, deep nesting), not as a JavaScript value. */
const RAW_TAG = Symbol('raw JSON');
const RAW = (text: string) => ({ [RAW_TAG]: text });
const isRaw = (value: unknown): value is { [RAW_TAG]: string } => value !== null && typeof value === 'object' && RAW_TAG in value;

/** An object's text from its entries, keeping every key as given (`__proto__`, repeats) and raw literals. */
function serialize(entries: [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${isRaw(v) ? v[RAW_TAG] : (JSON.stringify(v) ?? 'null')}`).join(',')}}`;
}

const formText = (entries: [string, string][]) => entries.map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`).join('&');

/** Percent-encoding that also sends what a broken client can: a lone surrogate as the invalid UTF-8 bytes %ED%A0%80. */
export const percentEncoded = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\s\S]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80';
    }
  });

/** Requests to the route: a valid input (for a deployment of `stage`), then one way of breaking it. */
export function attemptsOf(route: Route, stage: string): fc.Arbitrary<Attempt> {
  return validInput(route, stage).chain((input) => fc.oneof(...mutations(route, input)));
}

// ---------------------------------------------------------------------------------------------------------
// The oracle: what the HTTP layer must answer, computed from the operation's own schemas.

interface Expected {
  status: number;
  /** What the message starts with: the field it names. */
  names: string;
}

/** The first issue of `schema` on `value`, as the layer names it (`body.level`), or undefined when valid. */
function firstIssue(schema: OperationSpec['query'], value: unknown, where: string): string | undefined {
  const result = schema!.safeParse(value);
  if (result.success) return undefined;
  return [where, ...result.error.issues[0]!.path.map(String)].join('.');
}

export function bodyText(route: Route, attempt: Attempt): string | undefined {
  if (attempt.rawBody !== undefined) return attempt.rawBody;
  if (route.op.body === undefined) return undefined;
  if (route.op.bodyType === 'form') return formText(stringEntries(Object.fromEntries(attempt.body ?? [])));
  if (route.op.body === 'multipart') return undefined;
  return serialize(attempt.body ?? []);
}

/** The refusal the request must get, or undefined when its input is valid (the answer then depends on more). */
export function expectedRefusal(route: Route, attempt: Attempt, text: string | undefined): Expected | undefined {
  const { op } = route;
  const type = contentTypeOf(route, attempt);
  const size = text === undefined ? 0 : Buffer.byteLength(text);
  if (isJson(op)) {
    if (type !== null && !/^application\/json\s*(;|$)/i.test(type)) return { status: 415, names: 'body' };
    if (size > JSON_BODY_LIMIT) return { status: 413, names: 'body' };
  } else if (op.bodyType === 'form') {
    if (type === null || !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return { status: 415, names: 'body' };
    if (size > JSON_BODY_LIMIT) return { status: 413, names: 'body' };
  } else if (op.body === 'multipart') {
    return undefined;
  }
  if (op.params) {
    // What the router hands the operation: each parameter percent-decoded, invalid UTF-8 left as sent.
    const seen = Object.fromEntries(Object.entries(attempt.params).map(([name, value]) => [name, tryDecodeURIComponent(percentEncoded(value))]));
    const field = firstIssue(op.params, seen, 'path');
    if (field) return { status: 400, names: field };
  }
  if (op.query) {
    const seen = new Set<string>();
    for (const [name] of attempt.query) {
      if (seen.has(name)) return { status: 400, names: `query.${name}` };
      seen.add(name);
    }
    const first = Object.fromEntries([...attempt.query].reverse());
    const field = firstIssue(op.query, first, 'query');
    if (field) return { status: 400, names: field };
  }
  if (op.body !== undefined && op.bodyType === 'form') {
    const params = new URLSearchParams(text ?? '');
    for (const name of params.keys()) if (params.getAll(name).length > 1) return { status: 400, names: `body.${name}` };
    const field = firstIssue(op.body as OperationSpec['query'], Object.fromEntries([...params].filter(([, v]) => v !== '')), 'body');
    if (field) return { status: 400, names: field };
  } else if (isJson(op)) {
    if (text !== undefined && text.trim() !== '' && type === null) return { status: 415, names: 'body' };
    let json: unknown = {};
    if (text !== undefined && text.trim() !== '') {
      try {
        // The body is read as UTF-8 text, which drops a leading byte order mark (WHATWG Encoding), as RFC 8259 allows.
        json = parseJsonExact(text.replace(/^\ufeff/, ''));
      } catch {
        return { status: 400, names: 'body' };
      }
    }
    const field = firstIssue(op.body as OperationSpec['query'], json, 'body');
    if (field) return { status: 400, names: field };
  }
  // A header's value arrives without the spaces around it (HTTP drops them), so ` pr` reaches the service as `pr`.
  const key = attempt.headers['Idempotency-Key']?.replace(/^[ \t]+|[ \t]+$/g, '');
  // The form the served document publishes (bare or quoted, never one quote alone).
  if (key !== undefined && !new RegExp(IDEMPOTENCY_KEY_PATTERN).test(key)) return { status: 400, names: 'Idempotency-Key' };
  return undefined;
}

export function contentTypeOf(route: Route, attempt: Attempt): string | null {
  if (attempt.contentType !== undefined) return attempt.contentType;
  if (route.op.bodyType === 'form') return 'application/x-www-form-urlencoded';
  return isJson(route.op) ? 'application/json' : null;
}
