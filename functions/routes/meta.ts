import * as z from 'zod/mini';
import { open } from '../../core/http/auth.js';
import { defineGroup, type Base, type OperationSpec } from '../../core/http/operation.js';
import { REFERENCE_FILES, REFERENCE_VERSION } from '../../core/http/reference-assets.js';

const fileNames = Object.keys(REFERENCE_FILES) as [keyof typeof REFERENCE_FILES, ...(keyof typeof REFERENCE_FILES)[]];
const AssetParams = z.object({ file: z.enum(fileNames) });
const AssetQuery = z.object({ v: z.optional(z.string().check(z.maxLength(64))) });

const Jwks = z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string() })) });

/** Operations every base has: its home page, its token keys, its API reference and a health check. */
function metaOps(base: Base) {
  const reference = base === 'hero' ? 'the hero base' : 'the main base';
  return {
    home: {
      name: 'home',
      method: 'GET',
      // The base itself: `/v2-testing`, `/hero-testing`.
      path: '/',
      tag: 'platform',
      auth: open,
      tableFree: true,
      summary:
        base === 'hero'
          ? 'What the hero base is, with links to its API reference and OpenAPI document (HTML)'
          : 'What the service is, with links to its API reference, OpenAPI document and operator console (HTML)',
      description:
        (base === 'hero'
          ? 'A short page at the base itself (`/hero-testing` on the local stage)'
          : "A short page at the host root and at the stage base itself (`/v2-testing` on the local stage): the same page at both, about the main base. It links the hero base's reference too") +
        ", and lists the reference's sections. The base with a trailing slash redirects to it (308).",
      status: 200,
      envelope: 'bare',
      response: z.string(),
      errors: {},
      raw: true,
      mediaTypes: ['text/html'],
    },
    health: {
      name: 'health',
      method: 'GET',
      path: '/health',
      tag: 'platform',
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
      tag: 'platform',
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
      tag: 'platform',
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
      tag: 'platform',
      auth: open,
      tableFree: true,
      summary: `Interactive API reference of ${reference} (HTML)`,
      status: 200,
      envelope: 'bare',
      response: z.string(),
      errors: {},
      raw: true,
      mediaTypes: ['text/html'],
    },
    docs_asset: {
      name: 'docs asset',
      method: 'GET',
      path: '/docs/assets/:file',
      tag: 'platform',
      auth: open,
      tableFree: true,
      summary: `A file of the API reference page (Swagger UI ${REFERENCE_VERSION} and the page's start-up script)`,
      description:
        `The files the reference page loads, served by the service itself. \`v\` is the Swagger UI version the page asks for (${REFERENCE_VERSION}): ` +
        'the answer may be kept for a year (`Cache-Control: public, max-age=31536000, immutable`), and a new version is a new URL. ' +
        'Gzipped when the request accepts gzip.',
      params: AssetParams,
      query: AssetQuery,
      status: 200,
      envelope: 'bare',
      response: z.string(),
      errors: { 400: `file is not one of ${fileNames.join(', ')}, or v is longer than 64 characters` },
      raw: true,
      mediaTypes: ['text/javascript', 'text/css'],
    },
  } satisfies Record<string, OperationSpec>;
}

export const metaRoutes = defineGroup('meta', 'main', metaOps('main'));
export const heroMetaRoutes = defineGroup('meta', 'hero', metaOps('hero'));
/** The host root, outside any base: the main base's home page, the same operation (one entry of the main document, at both). */
export const rootMetaRoutes = defineGroup('meta', 'root', { home: metaRoutes.ops.home });
