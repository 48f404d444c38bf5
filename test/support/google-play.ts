import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, jwtVerify, SignJWT } from 'jose';
import { readBody } from '../../tools/local/dev-chain/loopback.js';

/**
 * A loopback Google on 127.0.0.1, answering what google_callback calls in Google's documented formats:
 * - GET  /oauth2/v3/certs: the JWKS of the key that signs Pub/Sub push OIDC tokens (`signPushToken`);
 * - POST /token: the OAuth 2.0 JWT bearer grant of a service account (the assertion is checked: RS256 by the
 *   account's key, iss the account, aud this endpoint, the androidpublisher scope) -> {access_token, expires_in};
 * - GET  /androidpublisher/v3/applications/{package}/purchases/products/{product}/tokens/{token}: a
 *   ProductPurchase (times as JSON strings, without productId and purchaseToken, as Google may answer) or
 *   404 in Google's error format; the bearer must be an access token this server issued;
 * - POST the same path + `:consume`: consumptionState and acknowledgementState become 1 (a second consume is
 *   400, as a purchase that cannot be consumed again).
 * `failNext` makes the next API request answer 500.
 */

export interface ServiceAccount {
  json: { type: 'service_account'; client_email: string; private_key: string; private_key_id: string; token_uri: string };
  publicKey: KeyObject;
}

export interface PlayPurchase {
  productId: string;
  purchaseState: number;
  consumptionState: number;
  acknowledgementState: number;
  orderId?: string;
  obfuscatedExternalAccountId?: string;
  quantity?: number;
}

export interface LoopbackGoogle {
  url: string;
  certsUrl: string;
  account: ServiceAccount;
  /** Purchase token -> the purchase Google knows. */
  purchases: Map<string, PlayPurchase>;
  calls: { method: string; path: string }[];
  failNext: number;
  /** An OIDC token as Pub/Sub signs one for a push; `claims` override Google's. */
  signPushToken(claims: Record<string, unknown>, options?: { expiresIn?: string; key?: 'google' | 'other' }): Promise<string>;
  stop(): Promise<void>;
}

export const PUSH_ACCOUNT = 'pubsub-push@studio-game.iam.gserviceaccount.com';

function rsa() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

export async function startLoopbackGoogle(packageName: string): Promise<LoopbackGoogle> {
  const signer = rsa();
  const other = rsa();
  const signerKid = randomUUID();
  const accountKey = rsa();
  const accessTokens = new Set<string>();
  const state = { purchases: new Map<string, PlayPurchase>(), calls: [] as { method: string; path: string }[], failNext: 0 };
  let url = '';

  const server = createServer(async (req, res) => {
    const json = (status: number, body?: unknown) => {
      res
        .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json; charset=UTF-8' })
        .end(body === undefined ? undefined : JSON.stringify(body));
    };
    const googleError = (code: number, message: string, status: string) =>
      json(code, { error: { code, message, errors: [{ message, domain: 'androidpublisher', reason: status }], status } });
    const path = (req.url ?? '/').split('?')[0]!;
    const body = (await readBody(req)).toString('utf8');
    state.calls.push({ method: req.method ?? '', path });
    if (req.method === 'GET' && path === '/oauth2/v3/certs') {
      return json(200, { keys: [{ ...(await exportJWK(signer.publicKey)), kid: signerKid, alg: 'RS256', use: 'sig' }] });
    }
    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return json(400, { error: 'unsupported_grant_type' });
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', accountKey.publicKey, {
          issuer: account.json.client_email,
          audience: `${url}/token`,
          algorithms: ['RS256'],
        });
        if (!String(payload.scope).split(' ').includes('https://www.googleapis.com/auth/androidpublisher')) return json(400, { error: 'invalid_scope' });
      } catch {
        return json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const token = `ya29.${randomUUID()}`;
      accessTokens.add(token);
      return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const match = /^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/products\/([^/]+)\/tokens\/([^/:]+)(:consume)?$/.exec(path);
    if (!match) return googleError(404, 'Not found', 'NOT_FOUND');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !accessTokens.has(bearer)) return googleError(401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
    if (state.failNext > 0) {
      state.failNext--;
      return googleError(500, 'Internal error encountered.', 'INTERNAL');
    }
    const [, pkg, productId, token, consume] = match.map((part) => (part === undefined ? part : decodeURIComponent(part)));
    const purchase = state.purchases.get(token!);
    if (pkg !== packageName || !purchase || purchase.productId !== productId) return googleError(404, 'The purchase token was not found.', 'NOT_FOUND');
    if (consume) {
      if (req.method !== 'POST') return googleError(405, 'Method not allowed', 'METHOD_NOT_ALLOWED');
      if (purchase.consumptionState === 1) return googleError(400, 'The purchase cannot be consumed.', 'FAILED_PRECONDITION');
      purchase.consumptionState = 1;
      purchase.acknowledgementState = 1;
      return json(200, {});
    }
    const { productId: _omitted, ...answer } = purchase;
    return json(200, {
      kind: 'androidpublisher#productPurchase',
      purchaseTimeMillis: String(Date.now() - 1000),
      developerPayload: '',
      regionCode: 'US',
      ...answer,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account: ServiceAccount = {
    json: {
      type: 'service_account',
      client_email: 'play-api@studio-game.iam.gserviceaccount.com',
      private_key: accountKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      private_key_id: randomUUID().replaceAll('-', ''),
      token_uri: `${url}/token`,
    },
    publicKey: accountKey.publicKey,
  };
  return Object.assign(state, {
    url,
    certsUrl: `${url}/oauth2/v3/certs`,
    account,
    signPushToken: (claims: Record<string, unknown>, options: { expiresIn?: string; key?: 'google' | 'other' } = {}) =>
      new SignJWT({ iss: 'https://accounts.google.com', email: PUSH_ACCOUNT, email_verified: true, sub: '1234567890', azp: '1234567890', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: signerKid, typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '1h')
        .sign(options.key === 'other' ? other.privateKey : signer.privateKey),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A Pub/Sub push body carrying a developer notification, as Pub/Sub writes it. */
export function pushBody(notification: Record<string, unknown>, messageId = String(Math.floor(Math.random() * 1e15))) {
  const publishTime = new Date().toISOString();
  return {
    message: {
      attributes: {},
      data: Buffer.from(JSON.stringify(notification)).toString('base64'),
      messageId,
      message_id: messageId,
      publishTime,
      publish_time: publishTime,
    },
    subscription: 'projects/studio-game/subscriptions/play-notifications',
  };
}

/** Developer notifications in Play's format (times as JSON strings). */
export const notifications = {
  purchased: (packageName: string, purchaseToken: string, sku: string) => ({
    version: '1.0',
    packageName,
    eventTimeMillis: String(Date.now()),
    oneTimeProductNotification: { version: '1.0', notificationType: 1, purchaseToken, sku },
  }),
  voided: (packageName: string, purchaseToken: string, orderId: string) => ({
    version: '1.0',
    packageName,
    eventTimeMillis: String(Date.now()),
    voidedPurchaseNotification: { purchaseToken, orderId, productType: 2, refundType: 1 },
  }),
  test: (packageName: string) => ({ version: '1.0', packageName, eventTimeMillis: String(Date.now()), testNotification: { version: '1.0' } }),
};
