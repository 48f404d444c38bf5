import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { dynamoEndpoint, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { storeIssuerOf, storePathOf, storeWorld, type StoreWorld } from './support/store.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * Setting up store sign-in as docs/api.md ("Clients") tells an operator to: `npm run admin --
 * register-store-client … --assertion-jwk …` registers the partner backend with its public key, run here as
 * written against this file's table; the partner signs a user in with the matching private key, and a partner
 * app (registered the same way) runs the code flow for that user. A key the command must not take is refused
 * with a message naming the option, and nothing is written.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
let options: StoreWorld['options'];
const REDIRECT = 'https://app.example/callback';

beforeAll(async () => {
  ({ deps, app, options } = await storeWorld());
});

/** `npm run -s admin -- register-store-client <args>` against this file's table, as the docs give it. */
const admin = (args: string[]) =>
  promisify(execFile)('npm', ['run', '-s', 'admin', '--', 'register-store-client', ...args, '--table', deps.table, '--endpoint', dynamoEndpoint()], {
    cwd: process.cwd(),
  });

/** The command's failure: its exit and what it printed. */
const failure = (args: string[]) =>
  admin(args).then(
    () => ({ code: 0, stderr: '', stdout: '' }),
    (error: { code: number; stderr: string; stdout: string }) => error,
  );

const backendArgs = (jwk: string) => [
  '--region',
  'default',
  '--type',
  'confidential',
  '--name',
  'Partner store backend',
  '--redirect-uri',
  'https://partner.example/cb',
  '--scope',
  'profile',
  '--assertion-jwk',
  jwk,
];

async function signIn(clientId: string, key: CryptoKey, alg: 'ES256' | 'EdDSA', sub: string) {
  const iat = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ iss: clientId, sub, aud: storeIssuerOf('default'), iat, exp: iat + 60, jti: randomUUID(), name: 'Ana' })
    .setProtectedHeader({ alg })
    .sign(key);
  return call(app, 'POST', `${storePathOf('default')}/login`, { body: { assertion } });
}

describe('npm run admin -- register-store-client --assertion-jwk', () => {
  it('registers a partner backend (ES256 and EdDSA, the JWK as JSON or @FILE) whose users sign in and go through the code flow', async () => {
    const { stdout: appOut } = await admin(['--region', 'default', '--type', 'public', '--name', 'Pet app', '--redirect-uri', REDIRECT, '--scope', 'profile']);
    const client = { client_id: (JSON.parse(appOut) as { client_id: string }).client_id, token_endpoint_auth_method: 'none' } as oauth.Client;
    const folder = await mkdtemp(join(tmpdir(), 'store-cli-'));

    for (const [alg, asFile] of [
      ['ES256', false],
      ['EdDSA', true],
    ] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const jwk = JSON.stringify(await exportJWK(publicKey));
      const file = join(folder, `${alg}.jwk.json`);
      await writeFile(file, jwk);
      const registered = await admin(backendArgs(asFile ? `@${file}` : jwk));
      const { client_id, client_secret } = JSON.parse(registered.stdout) as { client_id: string; client_secret: string };
      expect(client_secret).toEqual(expect.any(String));
      expect(registered.stderr).toContain(`signing users in with its ${alg} key`);

      // The partner's backend signs its user in with the private half of the key registered.
      const sub = `user-${randomUUID()}`;
      const session = await signIn(client_id, privateKey, alg, sub);
      expect(session.status).toBe(200);
      const uid = session.body.uid as string;

      // A partner app asks for the user; the user allows it with the session; the app exchanges the code.
      const as = await oauth.processDiscoveryResponse(
        new URL(storeIssuerOf('default')),
        await oauth.discoveryRequest(new URL(storeIssuerOf('default')), { ...options, algorithm: 'oauth2' }),
      );
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        scope: 'profile',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(name, value);
      }
      const page = await (await app.request(url)).text();
      const requestId = /data-request-id="([^"]+)"/.exec(page)![1]!;
      const accepted = await call(app, 'POST', `${storePathOf('default')}/oauth/accept`, {
        token: session.body.session,
        body: { request_id: requestId, decision: 'allow' },
      });
      expect(accepted.status).toBe(200);
      const params = oauth.validateAuthResponse(as, client, new URL(accepted.body.redirect_to), state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, options),
      );
      const info = await oauth.processUserInfoResponse(as, client, uid, await oauth.userInfoRequest(as, client, tokens.access_token, options));
      expect(info).toEqual({ sub: uid, name: 'Ana', partner: client_id, partner_user_id: sub });
    }
  }, 90_000);

  it('refuses a private JWK, another algorithm, a key that is no point of its curve, a public client and text that is not JSON, writing nothing', async () => {
    const es256 = await generateKeyPair('ES256', { extractable: true });
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const es384 = await generateKeyPair('ES384', { extractable: true });
    const publicJwk = await exportJWK(es256.publicKey);
    const before = await scanAll(deps);
    const cases: [string[], RegExp][] = [
      [backendArgs(JSON.stringify(await exportJWK(es256.privateKey))), /--assertion-jwk: this JWK has a private member \(d\)/],
      [backendArgs(JSON.stringify(await exportJWK(rsa.publicKey))), /--assertion-jwk: kty RSA: the key must be ES256 .* or EdDSA/],
      [backendArgs(JSON.stringify(await exportJWK(es384.publicKey))), /--assertion-jwk: crv P-384: an EC key here is P-256 \(ES256\)/],
      [backendArgs(JSON.stringify({ ...publicJwk, alg: 'ES512' })), /--assertion-jwk: alg ES512/],
      [backendArgs(JSON.stringify({ ...publicJwk, y: publicJwk.x })), /--assertion-jwk: not a valid P-256 public key/],
      [backendArgs('not json'), /--assertion-jwk: not JSON/],
      [
        [
          '--region',
          'default',
          '--type',
          'public',
          '--name',
          'app',
          '--redirect-uri',
          REDIRECT,
          '--scope',
          'profile',
          '--assertion-jwk',
          JSON.stringify(publicJwk),
        ],
        /--assertion-jwk: only a confidential client/,
      ],
    ];
    for (const [args, message] of cases) {
      const refused = await failure(args);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(message);
      expect(refused.stdout).toBe('');
    }
    expect(await scanAll(deps)).toEqual(before);
  }, 90_000);
});
