import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { OperationSpec } from '../core/http/operation.js';
import { routeTable } from '../functions/routes/index.js';
import { servedDocument } from './support/openapi-check.js';

/**
 * Every rule a valid input must follow is in the served OpenAPI document, the one clients are generated from: a
 * rule zod's JSON Schema cannot carry by itself (a refinement, a URL's schemes) is stated by a format, a pattern,
 * a JSON Schema keyword or a description, on the field it is about, or on each field a rule between fields binds
 * (docs/api.md "Input rules in the document"): client generators keep a field's description, not always an object's.
 * KNOWN names each such field and what its schema must say; the walk below finds every refinement of the route
 * table, so a new one fails here until it is stated and listed.
 */

type Json = Record<string, any>;

interface Stated {
  /** The operation (its catalogue name: every operation of that name, one per region for the partner store). */
  op: string;
  /** Where the rule is applied, when not where it is stated (a query's cross-field rule, stated on a parameter). */
  refined?: string;
  /** Where the document states it: `body`, `query.<name>`, `params.<name>`, then `.field`, `[]` (items), `{}` (map values). */
  at: string;
  /** What the schema there must hold (toMatchObject; a union's variants are tried each). */
  rule: Json;
}

const KNOWN: Stated[] = [
  {
    op: 'store client register',
    at: 'body.redirect_uris[]',
    rule: { format: 'uri', pattern: '^[^#]*$', description: expect.stringMatching(/plain http only for a loopback host/) },
  },
  { op: 'store client register', at: 'body.redirect_uris', rule: { description: expect.stringMatching(/without a fragment/) } },
  { op: 'store client register', at: 'body.scopes', rule: { uniqueItems: true } },
  ...['description', 'receive_address', 'status'].map((field) => ({
    op: 'project update',
    refined: 'body',
    at: `body.${field}`,
    rule: { description: expect.stringMatching(/give at least one of description, receive_address, status/) },
  })),
  { op: 'vendor_reward', at: 'body.billNo', rule: { pattern: '^(?!PO\\d{10,}$)[A-Za-z0-9_-]{1,64}$' } },
  { op: 'vendor/signature', at: 'query.billNo', rule: { pattern: '^PO\\d{10,62}$' } },
  ...['kills', 'wins'].map((field) => ({
    op: 'addWin',
    refined: 'body',
    at: `body.${field}`,
    rule: { description: expect.stringMatching(/kills or wins must be above 0/) },
  })),
  { op: 'reward table set', at: 'body.rewards', rule: { description: expect.stringMatching(/each rank at most once/) } },
  ...['signature', 'id_token'].map((field) => ({
    op: 'account delete',
    refined: 'body',
    at: `body.${field}`,
    rule: { description: expect.stringMatching(/exactly one of signature .* or id_token/) },
  })),
  ...['user_id', 'address'].map((field) => ({
    op: 'player_view',
    refined: 'query',
    at: `query.${field}`,
    rule: { description: expect.stringMatching(/exactly one of user_id, address/) },
  })),
  { op: 'player_tickets_grant', at: 'body.amount', rule: { description: expect.stringMatching(/non-zero integer/) } },
  { op: 'account_export', refined: 'query', at: 'query.cursor', rule: { description: expect.stringMatching(/requires `section`/) } },
  { op: 'player_deletions', at: 'query.since', rule: { description: expect.stringMatching(/ISO 8601/) } },
  ...['signedTransaction', 'transactionId'].map((field) => ({
    op: 'app-verify-transaction',
    refined: 'body',
    at: `body.${field}`,
    rule: { description: expect.stringMatching(/signedTransaction or transactionId, exactly one/) },
  })),
  {
    op: 'hero config set',
    refined: 'body',
    at: 'body.levelCosts',
    rule: { description: expect.stringMatching(/every level from 2 to maxLevel: each level exactly once/) },
  },
  {
    op: 'league set',
    refined: 'body',
    at: 'body.tiers',
    rule: { description: expect.stringMatching(/the top tier promotes no one and the lowest demotes no one/) },
  },
  // An http(s) URL: JSON Schema's `uri` format allows any scheme.
  { op: 'savemerchantgame', at: 'body.game_url', rule: { format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' } },
  { op: 'create_merchant', at: 'body.social_links[].url', rule: { format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' } },
];

const operations = routeTable.flatMap((group) => Object.values(group.ops).map((op) => ({ op: op as OperationSpec, base: group.base })));

/**
 * Where in an operation's schemas a rule is applied that zod's JSON Schema drops: a refinement (`refine`,
 * `superRefine`), or a URL whose schemes are limited without a pattern saying so.
 */
function lostRules(op: OperationSpec): string[] {
  const found = new Set<string>();
  const walk = (schema: Json | undefined, at: string, seen: Set<unknown>) => {
    if (!schema?._zod || seen.has(schema)) return;
    seen.add(schema);
    const def = schema._zod.def;
    const checks = ((def.checks ?? []) as Json[]).map((check) => check._zod.def);
    if (checks.some((check) => check.check === 'custom')) found.add(at);
    const limitedUrl = checks.some((check) => check.format === 'url' && (check.protocol || check.hostname));
    const pattern = checks.some((check) => check.format === 'regex') || z.globalRegistry.get(schema as z.ZodMiniType)?.pattern !== undefined;
    if ((limitedUrl || (def.format === 'url' && (def.protocol || def.hostname))) && !pattern) found.add(at);
    switch (def.type) {
      case 'object':
        for (const [name, field] of Object.entries(def.shape)) walk(field as Json, `${at}.${name}`, seen);
        break;
      case 'array':
        walk(def.element, `${at}[]`, seen);
        break;
      case 'record':
        walk(def.valueType, `${at}{}`, seen);
        break;
      case 'lazy':
        walk(schema._zod.innerType, at, seen);
        break;
      case 'pipe':
        walk(def.in, at, seen);
        walk(def.out, at, seen);
        break;
      case 'union':
        for (const option of def.options) walk(option, at, seen);
        break;
      default:
        walk(def.innerType, at, seen);
    }
  };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = op[part];
    if (schema && typeof schema === 'object') walk(schema as Json, part, new Set());
  }
  return [...found];
}

/** The schemas at `at` in an operation's served entry: a union gives each of its variants. */
function schemasAt(entry: Json, at: string): Json[] {
  const [part, ...steps] = at.split(/(?=\.|\[\]|\{\})/);
  let nodes: Json[];
  if (part === 'body') nodes = Object.values(entry.requestBody?.content ?? {}).map((media) => (media as Json).schema);
  else {
    const name = steps.shift()?.slice(1);
    const parameter = (entry.parameters ?? []).find((p: Json) => p.in === (part === 'params' ? 'path' : 'query') && p.name === name);
    nodes = parameter ? [{ ...parameter.schema, ...(parameter.description && { description: parameter.description }) }] : [];
  }
  const variants = (node: Json): Json[] => [node, ...((node.anyOf ?? node.oneOf ?? []) as Json[]).flatMap(variants)];
  for (const step of steps) {
    nodes = nodes.flatMap(variants).flatMap((node) => {
      if (step === '[]') return node.items ? [node.items] : [];
      if (step === '{}') return typeof node.additionalProperties === 'object' ? [node.additionalProperties] : [];
      const field = node.properties?.[step.slice(1)];
      return field ? [field] : [];
    });
  }
  return nodes.flatMap(variants);
}

describe('input rules in the served OpenAPI document', () => {
  it('every rule zod cannot put in JSON Schema by itself is one KNOWN lists', () => {
    const listed = new Set(KNOWN.map((known) => `${known.op} ${known.refined ?? known.at}`));
    const unlisted = operations.flatMap(({ op }) => lostRules(op).map((at) => `${op.name} ${at}`)).filter((rule) => !listed.has(rule));
    expect([...new Set(unlisted)]).toEqual([]);
  });

  for (const known of KNOWN) {
    it(`${known.op}: ${known.at} states its rule`, () => {
      const ops = operations.filter(({ op }) => op.name === known.op);
      expect(ops.length, `no operation ${known.op}`).toBeGreaterThan(0);
      for (const { op, base } of ops) {
        const document = servedDocument(base === 'hero' ? '/hero-testing' : '/v2-testing', base === 'hero' ? 'hero' : 'main');
        const entry = document.paths[op.path.replace(/:(\w+)/g, '{$1}')]?.[op.method.toLowerCase()];
        expect(entry, `${op.method} ${op.path} is not in the document`).toBeDefined();
        const nodes = schemasAt(entry, known.at);
        expect(nodes.length, `${known.at} is not in ${op.name}'s document entry`).toBeGreaterThan(0);
        const stating = nodes.filter((node) => {
          try {
            expect(node).toMatchObject(known.rule);
            return true;
          } catch {
            return false;
          }
        });
        expect(stating, `${op.name} ${known.at}: ${JSON.stringify(nodes)}`).not.toEqual([]);
      }
    });
  }
});
