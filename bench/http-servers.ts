import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAllApps } from '../functions/apps.js';
import { withUnreadBodyDiscarded } from '../tools/local/unread-body.js';
import { depsWithParts } from '../functions/deployed.js';
import { handlers } from './warm-floor.js';

/**
 * The two HTTP servers of the bench's load part (bench/http-load.ts), in a process of their own so that the
 * load generator does not share their event loop:
 * - the service: every group composed as `npm start` serves them (functions/apps.ts) on @hono/node-server,
 *   with the same handling of bodies answered unread (tools/local/unread-body.ts),
 *   its Deps built as a deployed function builds them, from the SST_RESOURCE_* variables and DYNAMODB_ENDPOINT;
 * - the floor: node:http answering the same paths with bench/warm-floor.ts's handlers (the same DynamoDB
 *   calls, no framework). BENCH_FLOOR_ROUTES maps `METHOD /path` to a handler's name.
 * Both listen on loopback on ports of the system's choosing; the process prints them as one JSON line
 * (`{"service":port,"floor":port}`) and stops when its standard input closes.
 */
type FloorHandler = (typeof handlers)[keyof typeof handlers];

const floorRoutes = new Map(
  Object.entries(JSON.parse(process.env.BENCH_FLOOR_ROUTES ?? '{}') as Record<string, keyof typeof handlers>).map(([route, name]) => [
    route,
    handlers[name] as FloorHandler,
  ]),
);

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const floor = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://floor');
  const handler = floorRoutes.get(`${request.method} ${url.pathname}`);
  void (async () => {
    if (!handler) return { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"statusCode":404,"message":"no floor route"}' };
    const event = {
      rawPath: url.pathname,
      headers: request.headers as Record<string, string | undefined>,
      queryStringParameters: Object.fromEntries(url.searchParams),
      body: await bodyOf(request),
    };
    return handler(event);
  })()
    .catch((error: unknown) => ({ statusCode: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: String(error) }) }))
    .then((result) => response.writeHead(result.statusCode, result.headers).end(result.body));
});

// Every operation in one process: every part of Deps.
const everyPart = depsWithParts({
  table: () => import('../core/platform/db.js'),
  files: () => import('../core/platform/files.js'),
  oauthProviders: () => import('../core/identity/id-tokens.js'),
  chain: () => import('../core/chain/source.js'),
  appStore: () => import('../core/app-stores/apple-settings.js'),
  googlePlay: () => import('../core/app-stores/google-settings.js'),
  storeKeys: () => import('../core/partner-store/regions.js'),
  claimKey: () => import('../core/rewards/claim-key.js'),
  sponsorKey: () => import('../core/sponsorship/sponsor-key.js'),
});
const app = createAllApps(await everyPart());
const listening = (server: { once(event: 'listening', listener: () => void): unknown }) => new Promise<void>((done) => server.once('listening', done));
const service = serve({ fetch: withUnreadBodyDiscarded(app.fetch), port: 0, hostname: '127.0.0.1' });
await listening(service);
floor.listen(0, '127.0.0.1');
await listening(floor);

const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port;
console.log(JSON.stringify({ service: portOf(service), floor: portOf(floor) }));
process.stdin.resume();
process.stdin.on('end', () => {
  service.close();
  floor.close();
  process.exit(0);
});
