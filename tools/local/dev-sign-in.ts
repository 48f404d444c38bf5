import { Hono } from 'hono';
import { SignJWT, importJWK, type JWK } from 'jose';
import { escapeHtml } from '../../core/http/served-files.js';
import type { OAuthProvider } from '../../core/identity/id-tokens.js';

/**
 * The development sign-in provider `npm start` serves at `/dev-sign-in`: an OpenID Connect provider for local
 * players, so zkLogin works offline from any client (a browser game, a console program, Unity). It publishes its
 * discovery document and its RS256 key (kept in DATA_DIR), and signs an id_token for whoever names themselves:
 * `GET /dev-sign-in/authorize?client_id=local-game&response_type=id_token&redirect_uri=…&nonce=…&state=…`
 * shows a page asking for a name, or with `login_hint=<name>` redirects at once to
 * `redirect_uri#id_token=…&state=…` (the implicit flow zkLogin uses; `response_mode=query` puts them in the
 * query). The subject is `dev|<name>`, so a name signs in as the same player every time.
 *
 * It exists only on the local stage: the local server adds it to the providers it trusts, nothing deployed
 * imports it, and a deployed stage refuses a provider on a loopback host (core/platform/stand-ins.ts).
 */
export const DEV_SIGN_IN_PATH = '/dev-sign-in';
/** The one client id the provider signs for (the `aud` of its id_tokens). */
export const DEV_CLIENT_ID = 'local-game';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const TOKEN_TTL_SECONDS = 3600;

export interface DevSignIn {
  /** The provider entry the local server's id_token verifier trusts. */
  provider: OAuthProvider;
  /** Its routes, mounted at DEV_SIGN_IN_PATH. */
  app: Hono;
}

/** The provider at `origin` (the local server's, e.g. http://127.0.0.1:3000), signing with `key` (a private RS256 JWK). */
export async function devSignIn(options: { origin: string; key: JWK; now: () => Date }): Promise<DevSignIn> {
  const issuer = `${options.origin}${DEV_SIGN_IN_PATH}`;
  const privateKey = await importJWK(options.key, 'RS256');
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = options.key;
  const app = new Hono();

  app.get('/.well-known/openid-configuration', (c) =>
    c.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      jwks_uri: `${issuer}/jwks.json`,
      response_types_supported: ['id_token'],
      response_modes_supported: ['fragment', 'query'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'email'],
      claims_supported: ['iss', 'aud', 'sub', 'email', 'email_verified', 'name', 'nonce', 'iat', 'exp'],
    }),
  );
  app.get('/jwks.json', (c) => c.json({ keys: [{ ...publicJwk, use: 'sig', alg: 'RS256' }] }));

  app.get('/authorize', async (c) => {
    const query = c.req.query();
    const problem = requestProblem(query);
    if (problem) return c.text(`development sign-in: ${problem}`, 400);
    const name = query.login_hint?.trim().toLowerCase();
    if (!name) return c.html(namePage(query));
    if (!NAME.test(name)) return c.html(namePage(query, 'A name is 1 to 64 of a-z, 0-9, dot, dash and underscore, starting with a letter or digit.'), 400);
    const now = Math.floor(options.now().getTime() / 1000);
    const idToken = await new SignJWT({ email: `${name}@dev-sign-in.local`, email_verified: true, name, ...(query.nonce ? { nonce: query.nonce } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: options.key.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(DEV_CLIENT_ID)
      .setSubject(`dev|${name}`)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_TTL_SECONDS)
      .sign(privateKey);
    const answer = new URLSearchParams({ id_token: idToken, ...(query.state ? { state: query.state } : {}) });
    const target = new URL(query.redirect_uri!);
    if (query.response_mode === 'query') for (const [key, value] of answer) target.searchParams.set(key, value);
    else target.hash = answer.toString();
    return c.redirect(target.toString(), 302);
  });

  return { provider: { name: 'dev', issuer, jwksUri: `${issuer}/jwks.json`, clientIds: [DEV_CLIENT_ID] }, app };
}

/** What is wrong with an authorization request, or undefined. */
function requestProblem(query: Record<string, string>): string | undefined {
  if (query.client_id !== DEV_CLIENT_ID) return `client_id must be ${DEV_CLIENT_ID}`;
  if (query.response_type !== 'id_token') return 'response_type must be id_token (the implicit flow zkLogin uses)';
  if (query.response_mode !== undefined && !['fragment', 'query'].includes(query.response_mode)) return 'response_mode must be fragment or query';
  try {
    new URL(query.redirect_uri ?? '');
  } catch {
    return 'redirect_uri must be an absolute URL';
  }
  return undefined;
}

/** The page that asks a local player for a name, keeping the request's parameters. */
function namePage(query: Record<string, string>, error?: string): string {
  const kept = Object.entries(query)
    .filter(([key]) => key !== 'login_hint')
    .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in</title><style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}input,button{font:inherit;padding:.4rem}label{display:block;margin:.8rem 0 .3rem}.error{color:#b00020}</style></head>
<body><h1>Development sign-in</h1><p>This provider runs only on your machine, for local players. Any name signs in; the same name is the same player.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}<form method="get" action="${DEV_SIGN_IN_PATH}/authorize">${kept}
<label for="login_hint">Player name</label><input id="login_hint" name="login_hint" required pattern="[a-z0-9][a-z0-9._\\-]{0,63}" autofocus> <button type="submit">Sign in</button></form></body></html>`;
}
