/**
 * Calls from browsers (docs/api.md "Calls from other origins"): a game in a browser, a partner app or the console
 * calls the API from its own origin, so every answer must let the page read it. Any origin may: every call
 * carries its credential in the Authorization header (bearer tokens, a client's Basic credentials), never in a
 * cookie, so a page of another origin can do nothing a script holding the token could not do anyway. A client
 * needs the headers a retry or a sign-in reads: Retry-After (a 429 or 503), WWW-Authenticate (the partner
 * store's bearer challenges) and Location (the consent flow's redirects); browsers hide every other but the few
 * CORS safelists. Deployed, API Gateway answers the preflights and adds the headers (infra/gateways.ts); `npm start`
 * does the same with Hono's cors middleware (tools/local/serve.ts), from this one policy.
 */
export const crossOrigin = {
  allowOrigins: ['*'],
  /** The methods of the route table (test/infra.test.ts checks it lists them all). */
  allowMethods: ['GET', 'POST', 'PUT'],
  allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
  exposeHeaders: ['retry-after', 'www-authenticate', 'location'],
  /** How long a browser may keep a preflight's answer. */
  maxAgeSeconds: 600,
} as const;
