import * as z from 'zod/mini';
import { open } from '../../core/http/auth.js';
import { defineGroup, type Base, type OperationSpec } from '../../core/http/operation.js';

const Jwks = z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string() })) });

/** Operations every base has: its token keys, its API reference and a health check. */
function metaOps(base: Base) {
  const reference = base === 'hero' ? 'the hero base' : 'the main base';
  return {
    health: {
      name: 'health',
      method: 'GET',
      path: '/health',
      auth: open,
      tableFree: true,
      summary: 'Answers 200 once the service can serve',
      status: 200,
      envelope: 'bare',
      response: z.object({ status: z.literal('ok'), stage: z.string() }),
      errors: {},
    },
    jwks: {
      name: 'jwks',
      method: 'GET',
      path: '/.well-known/jwks.json',
      auth: open,
      tableFree: true,
      summary: 'Public keys that verify the tokens this stage issues (ES256)',
      status: 200,
      envelope: 'bare',
      response: Jwks,
      errors: {},
    },
    openapi: {
      name: 'openapi',
      method: 'GET',
      path: '/openapi.json',
      auth: open,
      tableFree: true,
      summary: `OpenAPI 3.1 document of ${reference}`,
      status: 200,
      envelope: 'bare',
      response: z.looseObject({ openapi: z.string() }),
      errors: {},
      raw: true,
    },
    docs: {
      name: 'docs',
      method: 'GET',
      path: '/docs',
      auth: open,
      tableFree: true,
      summary: `Interactive API reference of ${reference} (HTML)`,
      status: 200,
      envelope: 'bare',
      response: z.string(),
      errors: {},
      raw: true,
    },
  } satisfies Record<string, OperationSpec>;
}

export const metaRoutes = defineGroup('meta', 'main', metaOps('main'));
export const heroMetaRoutes = defineGroup('meta', 'hero', metaOps('hero'));
