import * as z from 'zod/mini';
import packageJson from '../../package.json' with { type: 'json' };
import { errorBody, errorEnvelopeOf, type ErrorEnvelope } from './envelopes.js';
import type { Base, OperationSpec, RouteGroup } from './operation.js';
import { describePolicy, errorsOf } from './policy-text.js';
import { isIntParam } from '../shared/fields.js';
import { baseUnitsJsonSchema, exactIntegerJsonSchema } from '../shared/amounts.js';
import { JSON_BODY_LIMIT_TEXT, JSON_NESTING_LIMIT } from './json-body.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../platform/idempotency-key.js';
import { storeChallengeHeaders } from '../partner-store/bearer.js';
import { codesOf } from './operation-codes.js';
import { retryAfterCodes } from './error-catalogue.js';
import { TAGS } from './tags.js';

/**
 * The OpenAPI 3.1 document of one base, generated from the route table so it cannot drift from what the
 * Hono apps serve. Schemas come from the operations' Zod schemas (`z.toJSONSchema`, draft 2020-12, which is
 * OpenAPI 3.1's schema dialect): requests as the client sends them (`io: 'input'`, so defaulted fields are
 * optional), responses as the server answers (`io: 'output'`).
 *
 * Paths are relative to the stage's base path, given once as `servers[0].url` (a relative URL, resolved
 * against the host the document was fetched from), so the same paths read alike on every stage; the main document's
 * root operations name the host root as their path's own server, and the one operation served at both (the home
 * page, `/`) names both. Each operation is listed under its section (its `tag`, core/http/tags.ts).
 * Schemas are inlined per operation, the error envelopes too: each error response lists the codes its operation can
 * answer with its status (core/http/operation-codes.ts).
 */

type JsonSchema = Record<string, unknown>;

export function openApiDocument(groups: readonly RouteGroup[], base: Base, options: { basePath: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  const tokenKinds = new Set<string>();
  /** The operation each documented `METHOD path` is, and where it is served: the stage base, the host root or both. */
  const served = new Map<string, { op: OperationSpec; path: string; bases: Set<Base> }>();

  for (const group of groups) {
    const ops = Object.values(group.ops);
    if (!documentedOn(group.base, base) || ops.length === 0) continue;
    for (const op of ops) {
      const path = openApiPath(op.path);
      const method = op.method.toLowerCase();
      const known = served.get(`${method} ${path}`);
      if (known) {
        // One operation served both at the stage base and at the host root (the home page) is one entry, at both.
        if (known.op.name !== op.name || known.bases.has(group.base)) throw new Error(`openapi: ${op.method} ${op.path} is defined by two operations`);
        known.bases.add(group.base);
        continue;
      }
      served.set(`${method} ${path}`, { op, path, bases: new Set([group.base]) });
      const envelope = op.errorEnvelope ?? errorEnvelopeOf(group.base, op.path);
      if (op.auth !== 'open') for (const kind of op.auth.tokens) tokenKinds.add(kind);
      (paths[path] ??= {})[method] = operation(op, envelope, uniqueOperationId(op.name, operationIds));
    }
  }
  // A path at the host root names it as its own server (a path's servers are those of all its operations).
  for (const [path, item] of Object.entries(paths)) {
    const where = [...served.values()].filter((entry) => entry.path === path).map((entry) => [...entry.bases].sort().join(' '));
    if (new Set(where).size > 1) throw new Error(`openapi: ${path} has operations at the host root and others at the stage base`);
    if (where[0] === 'root') item.servers = [{ url: '/', description: 'the host root, outside the stage base' }];
    if (where[0] === 'main root')
      item.servers = [
        { url: '/', description: 'the host root' },
        { url: options.basePath, description: "this stage's base" },
      ];
  }

  return {
    openapi: '3.1.0',
    info: {
      title: base === 'hero' ? 'Hero game API' : 'Game platform API',
      version: packageJson.version,
      description: overview(base, [...tokenKinds]),
    },
    servers: [{ url: options.basePath, description: "this stage's base; every path below is relative to it" }],
    tags: referenceSections(groups, base),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An ES256 JWT issued by this stage; its audience is the token kind. Public keys: `GET /.well-known/jwks.json`.',
        },
      },
    },
  };
}

/** Whether a group's operations are in a base's document: the main document carries the root operations too. */
const documentedOn = (groupBase: Base, base: Base) => groupBase === base || (base === 'main' && groupBase === 'root');

/** The reference's sections a base's document lists: those its operations name, in reading order (core/http/tags.ts). */
export function referenceSections(groups: readonly RouteGroup[], base: Base): { name: string; description: string }[] {
  const named = new Set(groups.filter((group) => documentedOn(group.base, base)).flatMap((group) => Object.values(group.ops).map((op) => op.tag)));
  return TAGS.filter((tag) => named.has(tag.name)).map(({ name, description }) => ({ name, description }));
}

function overview(base: Base, tokenKinds: string[]): string {
  const envelopes =
    base === 'hero'
      ? 'Successes are bare JSON; errors are `{message, statusCode}`.'
      : 'Merchant paths (`/merchant/...`) answer `{code, message, data}` with `code` equal to the HTTP status, and ' +
        'errors as `{code, message, data: null}` (an operation may declare another `data` for a status, shown in its response). Account, wallet and store paths answer the bare record, or ' +
        '`{data, statusCode, message, totalPage}` for lists; their errors are `{statusCode, message}`.';
  const tokens = tokenKinds.length
    ? `Protected operations take \`Authorization: Bearer <token>\`. The token's kind is its audience; each operation ` +
      `lists the kinds it accepts (\`x-token-kinds\`, here: ${tokenKinds.join(', ')}). A missing, invalid or expired ` +
      `token, or one of another kind, is 401; a token without the right to the resource is 403.`
    : 'Every operation here is open.';
  const bodies =
    `A JSON body is sent with \`Content-Type: application/json\` (else 415; a request without a body may omit it, and is read as \`{}\`) ` +
    `and is at most ${JSON_BODY_LIMIT_TEXT} (else 413); both are checked before the body is read. It nests arrays and objects at most ` +
    `${JSON_NESTING_LIMIT} levels deep (else 400). Integer query and path parameters ` +
    'are written in decimal digits with an optional `-` and no leading zeros; anything else is 400 naming the parameter.';
  return [
    `**Envelopes.** ${envelopes} Each operation's responses show its own envelope. An unexpected failure is 500 in the same error envelope.`,
    `**Tokens.** ${tokens}`,
    `**Input.** ${bodies}`,
  ].join('\n\n');
}

/**
 * The form of the request headers whose value the service checks: what a generated client or validator must
 * take, exactly what the service takes. A header not listed here is any string.
 */
const headerForms: Record<string, { note: string; schema: JsonSchema }> = {
  'Idempotency-Key': {
    note: 'Sent bare (`k`) or as a quoted string (`"k"`, the structured-field string form of the IETF Idempotency-Key draft): a quoted key is the same key as the bare one.',
    schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, examples: ['order-7731-attempt'] },
  },
};

/** Request headers an operation reads besides Authorization (e.g. Idempotency-Key); all optional. */
function headerParameters(op: OperationSpec): JsonSchema[] {
  return Object.entries(op.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: false,
    description: [description, headerForms[name]?.note].filter(Boolean).join('. '),
    schema: headerForms[name]?.schema ?? { type: 'string' },
  }));
}

function operation(op: OperationSpec, envelope: ErrorEnvelope, operationId: string): JsonSchema {
  const where = `openapi: ${op.name}`;
  const parameters = [...pathParameters(op, where), ...queryParameters(op, where), ...headerParameters(op)];
  return {
    operationId,
    // The catalogue names some operations with spaces or brackets (docs/api.md, "The compatibility contract");
    // keep that name findable.
    ...(operationId !== op.name && { 'x-catalogue-name': op.name }),
    summary: op.summary,
    description: [op.description, describePolicy(op.auth, op.method)].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && { requestBody: requestBody(op.body, op.multipartFields, where, op.bodyType) }),
    responses: {
      [op.status]: successResponse(op, where),
      ...(op.redirect && {
        302: { description: op.redirect, headers: { Location: { description: 'where the user agent goes', schema: { type: 'string', format: 'uri' } } } },
      }),
      ...Object.fromEntries(Object.entries(errorsOf(op)).map(([status, cause]) => [status, errorResponse(op, envelope, Number(status), cause, where)])),
    },
    security: op.auth === 'open' ? [] : [{ bearer: [] }],
    ...(op.auth !== 'open' && { 'x-token-kinds': op.auth.tokens }),
    ...(op.auth !== 'open' && op.auth.role && { 'x-role': op.auth.role }),
    ...(op.auth !== 'open' && { 'x-ownership': op.auth.owns }),
  };
}

/** Hono's `/games/:code` is OpenAPI's `/games/{code}`. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)/g, '{$1}');
}

/** operationIds must be unique, and code generators want identifiers: `merchantStatus (set)` → `merchantStatus_set`. */
function uniqueOperationId(name: string, taken: Set<string>): string {
  const safe = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'operation';
  let id = safe;
  for (let n = 2; taken.has(id); n++) id = `${safe}_${n}`;
  taken.add(id);
  return id;
}

/** Every `:name` of the path is a required parameter (OpenAPI demands it), typed by `params` where it says. */
function pathParameters(op: OperationSpec, where: string): JsonSchema[] {
  const schema = op.params ? objectSchema(op.params, `${where} params`) : undefined;
  return [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: schema?.properties[name!] ?? { type: 'string' },
  }));
}

function queryParameters(op: OperationSpec, where: string): JsonSchema[] {
  if (!op.query) return [];
  const { properties, required } = objectSchema(op.query, `${where} query`);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(typeof schema.description === 'string' && { description: schema.description }),
    schema,
  }));
}

function objectSchema(schema: z.ZodMiniType, where: string) {
  const json = toJsonSchema(schema, 'input', where);
  if (json.type !== 'object' || typeof json.properties !== 'object') throw new Error(`${where}: expected an object schema`);
  return { properties: json.properties as Record<string, JsonSchema>, required: (json.required as string[] | undefined) ?? [] };
}

function requestBody(
  body: z.ZodMiniType | 'multipart',
  fields: Record<string, string> = {},
  where: string,
  bodyType: OperationSpec['bodyType'] = 'json',
): JsonSchema {
  if (body === 'multipart') {
    // The spec names the parts but not their kinds; the only multipart operations take files.
    const properties = Object.fromEntries(
      Object.entries(fields).map(([name, description]) => [name, { type: 'string', contentMediaType: 'application/octet-stream', description }]),
    );
    return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties, required: Object.keys(fields) } } } };
  }
  // An empty body is read as `{}` (core/http/app.ts), so the body is optional exactly when `{}` passes.
  const mediaType = bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  return { required: !body.safeParse({}).success, content: { [mediaType]: { schema: toJsonSchema(body, 'input', `${where} body`) } } };
}

function successResponse(op: OperationSpec, where: string): JsonSchema {
  const record = toJsonSchema(op.response, 'output', `${where} response`);
  if (op.raw || op.page) {
    // A raw handler writes its own Response: the media types it names, else a text schema means an HTML page.
    const mediaTypes = op.mediaTypes ?? [record.type === 'string' ? 'text/html' : 'application/json'];
    return { description: op.summary, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: record }])) };
  }
  const status = { type: 'integer', const: op.status };
  const bodies = {
    merchant: {
      description: 'Success, in the merchant envelope `{code, message, data}`.',
      schema: envelopeSchema({ code: status, message: { type: 'string' }, data: record }),
    },
    paged: {
      description: 'Success, in the paged envelope `{data, statusCode, message, totalPage}`.',
      schema: envelopeSchema({ data: record, statusCode: status, message: { type: 'string' }, totalPage: { type: 'integer', minimum: 0 } }),
    },
    data: {
      description: 'Success, one record in the account envelope `{data, statusCode, message, totalPage}` (totalPage 1).',
      schema: envelopeSchema({ data: record, statusCode: status, message: { type: 'string' }, totalPage: { type: 'integer', const: 1 } }),
    },
    bare: { description: 'Success: the record itself.', schema: record },
  };
  const { description, schema } = bodies[op.envelope];
  return { description, content: { 'application/json': { schema } } };
}

function envelopeSchema(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties) };
}

/**
 * The stable code every error answer carries (core/platform/errors.ts): the codes the operation can answer with
 * the response's status (core/http/operation-codes.ts), listed with their meanings in docs/api.md, "Error codes".
 */
function errorCodeSchema(codes: readonly string[]): JsonSchema {
  return {
    type: 'string',
    description: 'the error code, `<area>.<reason>`: stable, for clients to match instead of the message (docs/api.md, "Error codes")',
    enum: codes,
  };
}

/** An error envelope whose code is one of `codes`, and whose `data` is `data` (merchant envelope; null by default). */
function errorEnvelopeSchema(envelope: ErrorEnvelope, codes: readonly string[], data: JsonSchema = { type: 'null' }): JsonSchema {
  const error = errorCodeSchema(codes);
  switch (envelope) {
    case 'merchant':
      return envelopeSchema({ code: { type: 'integer', description: 'the HTTP status' }, message: { type: 'string' }, data, error });
    case 'account':
      return envelopeSchema({ statusCode: { type: 'integer', description: 'the HTTP status' }, message: { type: 'string' }, error });
    case 'hero':
      return envelopeSchema({ message: { type: 'string' }, statusCode: { type: 'integer', description: 'the HTTP status' }, error });
    case 'oauth':
      return envelopeSchema({
        error: {
          type: 'string',
          description:
            'the RFC 6749 error code (invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, ...)',
        },
        error_description: { type: 'string' },
        error_code: { ...error, description: 'our error code beside the RFC\'s (docs/api.md, "Error codes")' },
      });
  }
}

function errorResponse(op: OperationSpec, envelope: ErrorEnvelope, status: number, cause: string, where: string): JsonSchema {
  const data = op.errorData?.[status as keyof OperationSpec['errors']];
  if (data !== undefined) {
    // A declared error `data` (OperationSpec `errorData`): the merchant envelope with the success record's schema.
    if (envelope !== 'merchant') throw new Error(`${where}: errorData is for merchant-path operations only`);
    if (!op.response.safeParse(data).success) throw new Error(`${where}: errorData for ${status} is not a valid response record`);
  }
  const codes = codesOf(op).get(status);
  if (!codes) throw new Error(`${where}: no error code of ${op.name} is answered with ${status} (its route table entry's \`codes\`)`);
  if (data !== undefined) {
    const schema = errorEnvelopeSchema(envelope, codes, toJsonSchema(op.response, 'output', `${where} errorData`));
    (schema.properties as Record<string, JsonSchema>).code = { type: 'integer', const: status };
    const headers = responseHeaders(op, status, codes);
    return {
      description: cause,
      ...(headers && { headers }),
      content: { 'application/json': { schema, example: errorBody(envelope, status, cause, codes[0]!, data) } },
    };
  }
  const headers = responseHeaders(op, status, codes);
  return {
    description: cause,
    ...(headers && { headers }),
    content: {
      'application/json': {
        schema: errorEnvelopeSchema(envelope, codes),
        example: errorBody(envelope, status, cause, codes[0]!),
      },
    },
  };
}

/**
 * The headers an error response carries besides the usual: Retry-After where a code it may carry sends one
 * (required when every code of the status does), and the partner store's bearer challenges
 * (core/partner-store/bearer.ts).
 */
function responseHeaders(op: OperationSpec, status: number, codes: readonly string[]): Record<string, JsonSchema> | undefined {
  const headers: Record<string, JsonSchema> = {};
  const retrying = codes.filter((code) => retryAfterCodes.has(code));
  if (retrying.length > 0) {
    headers['Retry-After'] = {
      description: `seconds to wait before trying again; sent with ${retrying.join(', ')}`,
      required: retrying.length === codes.length,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    };
  }
  const challenge = op.auth !== 'open' && op.auth.store ? storeChallengeHeaders(op.auth.store)[status as 401 | 403] : undefined;
  // Every 401 of a store operation is the bearer layer's, so it always carries one; a 403 only for a missing scope.
  if (challenge) headers['WWW-Authenticate'] = { description: challenge, required: status === 401, schema: { type: 'string', pattern: '^Bearer realm=' } };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/**
 * Where zod's own JSON Schema is not what the field accepts:
 * - zod leaves a default out of an input schema when the schema under it transforms (a default is an output
 *   value). Strict integer parameters (core/shared/fields.ts `intParam`) transform their text into the number
 *   they are documented as, so their default is the parameter's value when absent: put it back;
 * - amounts in base units accept a JSON integer or decimal text, and those answered as exact integers have no
 *   upper bound (`describeBaseUnits`).
 */
function schemaOverrides(io: 'input' | 'output') {
  return ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
    const def = (zodSchema as { _zod: { def: { type: string; innerType?: unknown; defaultValue?: unknown } } })._zod.def;
    if (io === 'input' && def.type === 'default' && isIntParam(def.innerType)) jsonSchema.default = def.defaultValue;
    describeBaseUnits(zodSchema, jsonSchema);
  };
}

/** An amount in base units (core/shared/amounts.ts) is a JSON integer of any size or decimal text. */
function describeBaseUnits(zodSchema: unknown, jsonSchema: JsonSchema) {
  const described = baseUnitsJsonSchema(zodSchema) ?? exactIntegerJsonSchema(zodSchema);
  if (!described) return;
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, described);
}

function toJsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', where: string): JsonSchema {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', override: schemaOverrides(io) }) as JsonSchema;
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
  // Inlined schemas cannot carry references: `#/$defs/...` would resolve against the OpenAPI document.
  // Recursive schemas or schemas registered with an id would need hoisting into components first.
  if (JSON.stringify(json).includes('"$ref"')) throw new Error(`${where}: recursive or registered schemas are not supported`);
  // `$schema` belongs to a standalone schema document, not to one embedded in OpenAPI; zod sets it at the root only.
  const { $schema: _dialect, ...embedded } = json;
  return embedded;
}
