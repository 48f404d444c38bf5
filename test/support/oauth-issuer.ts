import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { OAuthProvider } from '../../core/identity/id-tokens.js';

/**
 * How the JWKS endpoint behaves: answers; answers `LATE_JWKS_MS` late (past a short timeout a test configures, well
 * within the verifier's default of 3 s and jose's of 5 s: a verifier that gives up before the keys come applied the
 * configured timeout); or answers 500.
 */
export type JwksMode = 'ok' | 'late' | 'error';

/** How late the `late` JWKS answers. */
export const LATE_JWKS_MS = 1_500;

export interface IdTokenOptions {
  /** Default a fresh one; null leaves the claim out. */
  sub?: string | null;
  aud?: string | string[];
  iss?: string;
  email?: string;
  /** Expiry in seconds from now; negative for a token that has expired. Default one hour. */
  expiresIn?: number;
  alg?: 'RS256' | 'ES256';
  /** Signs with a key the issuer does not publish, under the published kid: a forged signature. */
  forged?: boolean;
  kid?: string;
}

export interface TestIssuer {
  /** `http://127.0.0.1:<port>`, the `iss` of its tokens. */
  issuer: string;
  jwksUri: string;
  /** The OAuthProvider entry a stage would configure for this issuer. */
  provider(name: string, clientIds: string[]): OAuthProvider;
  /** A signed id_token; unset claims default to a fresh sub, aud `client-a`, this issuer, one hour. */
  sign(options?: IdTokenOptions): Promise<string>;
  setMode(mode: JwksMode): void;
  /** How many times the JWKS was asked for. */
  jwksRequests(): number;
  stop(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(alg: 'RS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A loopback OpenID issuer: publishes an RS256 and an ES256 key at /jwks.json and signs id_tokens with them. */
export async function startOAuthIssuer(): Promise<TestIssuer> {
  const keys = { RS256: await signingKey('RS256', `rs-${randomUUID()}`), ES256: await signingKey('ES256', `es-${randomUUID()}`) };
  const forgers = { RS256: await signingKey('RS256', keys.RS256.kid), ES256: await signingKey('ES256', keys.ES256.kid) };
  let mode: JwksMode = 'ok';
  let requests = 0;
  const late = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    if (req.url !== '/jwks.json') return res.writeHead(404).end();
    requests++;
    if (mode === 'error') return res.writeHead(500).end('unavailable');
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [keys.RS256.publicJwk, keys.ES256.publicJwk] }));
    if (mode === 'ok') return answer();
    const timer = setTimeout(() => {
      late.delete(timer);
      answer();
    }, LATE_JWKS_MS);
    late.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUri: `${issuer}/jwks.json`,
    provider: (name, clientIds) => ({ name, issuer, jwksUri: `${issuer}/jwks.json`, clientIds }),
    async sign(options = {}) {
      const alg = options.alg ?? 'RS256';
      const key = (options.forged ? forgers : keys)[alg];
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(options.email ? { email: options.email, email_verified: true } : {})
        .setProtectedHeader({ alg, kid: options.kid ?? key.kid, typ: 'JWT' })
        .setIssuer(options.iss ?? issuer)
        .setAudience(options.aud ?? 'client-a');
      if (options.sub !== null) jwt.setSubject(options.sub ?? `sub-${randomUUID()}`);
      return jwt
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresIn ?? 3600))
        .sign(key.privateKey);
    },
    setMode: (next) => (mode = next),
    jwksRequests: () => requests,
    async stop() {
      for (const timer of late) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
