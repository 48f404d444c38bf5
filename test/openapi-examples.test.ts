import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { EXAMPLE } from '../core/shared/examples.js';
import { servedDocument } from './support/openapi-check.js';

/**
 * The examples the API reference shows (core/shared/examples.ts, docs/api.md "The API reference"): Swagger UI shows
 * a schema's `examples` and puts them in the requests it prepares, so each must be a value the schema takes, and a
 * schema with a pattern must have one (else Swagger UI shows random text matching the pattern). This walks every
 * schema of both served documents: parameters, request bodies, and responses with their headers.
 */

type Json = Record<string, any>;

const documents = [
  { base: 'main', document: servedDocument('/v2-testing') },
  { base: 'hero', document: servedDocument('/hero-testing', 'hero') },
] as const;

interface Found {
  at: string;
  schema: Json;
  /**
   * Whether Swagger UI makes up a value from the schema: not for a map's key names or a response header, nor for a
   * variant of a schema with examples of its own (it shows those).
   */
  sampled: boolean;
}

/** Every schema under `schema`, itself included. */
function schemasUnder(schema: Json, at: string, sampled: boolean, found: Found[]): Found[] {
  if (typeof schema !== 'object' || schema === null) return found;
  found.push({ at, schema, sampled });
  const variantsSampled = sampled && !Array.isArray(schema.examples);
  for (const [name, field] of Object.entries<Json>(schema.properties ?? {})) schemasUnder(field, `${at}.${name}`, sampled, found);
  for (const [pattern, field] of Object.entries<Json>(schema.patternProperties ?? {})) schemasUnder(field, `${at}[${pattern}]`, sampled, found);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [index, variant] of ((schema[key] ?? []) as Json[]).entries()) schemasUnder(variant, `${at}.${key}[${index}]`, variantsSampled, found);
  }
  for (const [index, item] of ((schema.prefixItems ?? []) as Json[]).entries()) schemasUnder(item, `${at}.prefixItems[${index}]`, sampled, found);
  for (const key of ['items', 'additionalProperties', 'not', 'contains'] as const) schemasUnder(schema[key], `${at}.${key}`, sampled, found);
  schemasUnder(schema.propertyNames, `${at}.propertyNames`, false, found);
  return found;
}

/** Every schema of a document, by where it is; and every media type's own `example` with its schema. */
function walk(document: Json) {
  const schemas: Found[] = [];
  const mediaExamples: { at: string; schema: Json; example: unknown }[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (method === 'servers' || method === 'parameters') continue;
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) schemasUnder(parameter.schema, `${at} ${parameter.in} ${parameter.name}`, true, schemas);
      for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {})) schemasUnder(media.schema, `${at} body (${type})`, true, schemas);
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          schemasUnder(media.schema, `${at} ${status} (${type})`, true, schemas);
          if ('example' in media) mediaExamples.push({ at: `${at} ${status} (${type})`, schema: media.schema, example: media.example });
        }
        for (const [name, header] of Object.entries<Json>(response.headers ?? {}))
          schemasUnder(header.schema, `${at} ${status} header ${name}`, false, schemas);
      }
    }
  }
  return { schemas, mediaExamples };
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

describe.each(documents)('the examples of the $base document', ({ document }) => {
  const { schemas, mediaExamples } = walk(document);

  it('are each valid for the schema that carries them', () => {
    const withExamples = schemas.filter(({ schema }) => Array.isArray(schema.examples));
    expect(withExamples.length).toBeGreaterThan(document.info.title === 'Hero game API' ? 20 : 300);
    const invalid: string[] = [];
    for (const { at, schema } of withExamples) {
      const validate = ajv.compile(schema);
      for (const example of schema.examples) if (!validate(example)) invalid.push(`${at}: ${JSON.stringify(example)}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(invalid).toEqual([]);
  });

  it("are each valid for their media type's schema where a response gives one (the error answers)", () => {
    expect(mediaExamples.length).toBeGreaterThan(20);
    const invalid = mediaExamples.flatMap(({ at, schema, example }) => {
      const validate = ajv.compile(schema);
      return validate(example) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('are given to every schema with a pattern, so the reference shows no text made up from one', () => {
    const unexampled = schemas.filter(({ schema, sampled }) => sampled && typeof schema.pattern === 'string' && !Array.isArray(schema.examples));
    expect(unexampled.map(({ at, schema }) => `${at}: ${schema.pattern}`)).toEqual([]);
  });
});

describe('the values the reference shows', () => {
  const main = documents[0].document;
  const body = (path: string) => main.paths[path].post.requestBody.content['application/json'].schema;
  const data = (path: string, method = 'get') => main.paths[path][method].responses['200'].content['application/json'].schema.properties.data;

  it('are ones a reader would believe: an e-mail, a Sui address, a game code, base units, times, ids', () => {
    expect(body('/merchant/login').properties.email.examples).toEqual(['studio@example.com']);
    expect(body('/account/register/chainwallet').properties.address.examples).toEqual([EXAMPLE.address]);
    expect(EXAMPLE.address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body('/merchant/games/save').properties.code.examples).toEqual(['demo-arena']);
    expect(body('/account/user/rechargeOrder').properties.amount.examples).toEqual([100000000, '100000000']);
    expect(body('/account/user/rechargeOrder').properties.userId.examples).toEqual([EXAMPLE.userId]);
    const order = main.paths['/account/user/rechargeOrder'].post.responses['200'].content['application/json'].schema.properties;
    expect(order.created_at.examples).toEqual(['2026-03-14T09:30:00.000Z']);
    expect(order.amount_base.examples).toEqual(['100000000']);
    expect(order.wallet_address.examples).toEqual([EXAMPLE.address]);
    expect(data('/merchant/info').properties.merchant_email.examples).toEqual(['studio@example.com']);
  });
});
