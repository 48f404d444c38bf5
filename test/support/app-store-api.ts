import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppStoreServerAPIClient, Environment } from '@apple/app-store-server-library';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { AppleApiClients } from '../../core/app-stores/apple-settings.js';
import { readBody } from '../../tools/local/dev-chain/loopback.js';

/**
 * A loopback App Store Server API: one HTTP server per environment on 127.0.0.1, answering the endpoints the
 * platform calls in Apple's documented formats, after checking the request's bearer token as Apple does (an
 * ES256 JWT of the API key: `kid` the key id, `iss` the issuer id, `aud` appstoreconnect-v1, `bid` the bundle
 * id). Apple's library client is used as it is, but for where it sends requests (its base URL is fixed per
 * environment): LoopbackClient overrides only that.
 *
 * - GET  /inApps/v1/transactions/{id}            -> {signedTransactionInfo} | 404 {errorCode 4040010}
 * - POST /inApps/v1/notifications/test           -> {testNotificationToken}
 * - GET  /inApps/v1/notifications/test/{token}   -> {signedPayload, sendAttempts} | 404 {errorCode 4040008}
 * - PUT  /inApps/v2/transactions/consumption/{id} -> 202, the body recorded
 * `failNext` makes the next request answer 500 {errorCode 5000000} (Apple's GeneralInternalError).
 */

export interface ApiKey {
  keyId: string;
  issuerId: string;
  privateKeyPem: string;
  publicKey: KeyObject;
}

export function makeApiKey(): ApiKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    keyId: randomUUID().slice(0, 10).toUpperCase(),
    issuerId: randomUUID(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey,
  };
}

export interface LoggedApiCall {
  method: string;
  path: string;
  body?: unknown;
}

export interface AppStoreApi {
  url: string;
  /** Transaction id -> signed transaction info this environment knows. */
  transactions: Map<string, string>;
  /** Test notification token -> its status (absent: Apple has not sent it yet). */
  testNotifications: Map<string, { signedPayload?: string; sendAttempts: { attemptDate: number; sendAttemptResult: string }[] } | undefined>;
  /** What a test notification request makes the status of (set by the test: what Apple "sent"). */
  onTestRequested?: (token: string) => void;
  calls: LoggedApiCall[];
  failNext: number;
  stop(): Promise<void>;
}

export async function startAppStoreApi(key: ApiKey, bundleId: string): Promise<AppStoreApi> {
  const api: Omit<AppStoreApi, 'url' | 'stop'> = { transactions: new Map(), testNotifications: new Map(), calls: [], failNext: 0 };
  const server = createServer(async (req, res) => {
    const json = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0]!;
    const text = (await readBody(req)).toString('utf8');
    api.calls.push({ method: req.method ?? '', path, ...(text ? { body: JSON.parse(text) } : {}) });
    if (!(await authorized(req, key, bundleId))) return json(401);
    if (api.failNext > 0) {
      api.failNext--;
      return json(500, { errorCode: 5000000, errorMessage: 'An unknown error occurred.' });
    }
    let match: RegExpExecArray | null;
    if (req.method === 'GET' && (match = /^\/inApps\/v1\/transactions\/(\d+)$/.exec(path))) {
      const signed = api.transactions.get(match[1]!);
      return signed ? json(200, { signedTransactionInfo: signed }) : json(404, { errorCode: 4040010, errorMessage: 'Transaction id not found.' });
    }
    if (req.method === 'POST' && path === '/inApps/v1/notifications/test') {
      const token = `${randomUUID()}_${Date.now()}`;
      api.testNotifications.set(token, undefined);
      (api as AppStoreApi).onTestRequested?.(token);
      return json(200, { testNotificationToken: token });
    }
    if (req.method === 'GET' && (match = /^\/inApps\/v1\/notifications\/test\/([^/]+)$/.exec(path))) {
      const status = api.testNotifications.get(decodeURIComponent(match[1]!));
      return status ? json(200, status) : json(404, { errorCode: 4040008, errorMessage: 'Test notification not found.' });
    }
    if (req.method === 'PUT' && /^\/inApps\/v2\/transactions\/consumption\/\d+$/.test(path)) return json(202);
    return json(404, { errorCode: 4040000, errorMessage: 'Not found.' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(api, { url, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }) as AppStoreApi;
}

/** The bearer token as Apple checks it: signed by the key, its id, issuer, audience and bundle id. */
async function authorized(req: IncomingMessage, key: ApiKey, bundleId: string): Promise<boolean> {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return false;
  try {
    if (decodeProtectedHeader(token).kid !== key.keyId) return false;
    const { payload } = await jwtVerify(token, key.publicKey, { issuer: key.issuerId, audience: 'appstoreconnect-v1', algorithms: ['ES256'] });
    return payload.bid === bundleId;
  } catch {
    return false;
  }
}

/** Apple's client, sending its requests to a loopback server instead of Apple's fixed URL. */
class LoopbackClient extends AppStoreServerAPIClient {
  constructor(
    private readonly baseUrl: string,
    key: ApiKey,
    bundleId: string,
    environment: Environment,
  ) {
    super(key.privateKeyPem, key.keyId, key.issuerId, bundleId, environment);
  }

  protected override makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ) {
    return fetch(`${this.baseUrl}${path}?${query}`, { method, body, headers }) as unknown as ReturnType<AppStoreServerAPIClient['makeFetchRequest']>;
  }
}

/** deps.appStoreApi for loopback servers of each environment. */
export function loopbackClients(servers: { Production?: AppStoreApi; Sandbox?: AppStoreApi }, key: ApiKey, bundleId: string): AppleApiClients {
  return async (environment) => {
    const server = servers[environment];
    if (!server) throw new Error(`no loopback App Store for ${environment}`);
    return new LoopbackClient(server.url, key, bundleId, environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX);
  };
}
