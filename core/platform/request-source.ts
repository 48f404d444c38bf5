import { AsyncLocalStorage } from 'node:async_hooks';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a request came from, as the adapter in front of the app saw it: in Lambda, the API Gateway v2
 * event's `requestContext.http.sourceIp` (functions/deployed.ts); locally, the socket's remote address
 * (tools/local/serve.ts). Never a header: X-Forwarded-For and the like are the client's to write.
 *
 * The entry point runs the request inside `withRequestSource`; code that needs the source (login throttling,
 * core/merchants/accounts.ts) reads `requestSource()`. Outside any request it is undefined.
 */
const store = new AsyncLocalStorage<string | undefined>();

export function withRequestSource<T>(address: string | undefined, run: () => T): T {
  return store.run(address, run);
}

export function requestSource(): string | undefined {
  return store.getStore();
}

/**
 * The source of a Hono `c.env` of either adapter: hono/aws-lambda's `{ requestContext }` (HTTP API v2
 * `http.sourceIp`, REST API v1 `identity.sourceIp`) or @hono/node-server's `{ incoming }` (the socket's remote
 * address), as their `getConnInfo` helpers read them.
 */
export function sourceOfEnv(env: unknown): string | undefined {
  const bindings = env as
    | {
        requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } };
        incoming?: { socket?: { remoteAddress?: string } };
        server?: { incoming?: { socket?: { remoteAddress?: string } } };
      }
    | undefined;
  return (
    bindings?.requestContext?.http?.sourceIp ??
    bindings?.requestContext?.identity?.sourceIp ??
    (bindings?.server?.incoming ?? bindings?.incoming)?.socket?.remoteAddress
  );
}

/**
 * The key a source is throttled under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4), an
 * IPv6 address as its /64 network (one subscriber usually holds a whole /64, so its addresses are one source),
 * anything else (no source known) as `unknown`.
 */
export function sourceKey(address: string | undefined): string {
  const trimmed = address?.trim() ?? '';
  if (isIPv4(trimmed)) return trimmed;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv6(trimmed)) return `${expandIPv6(trimmed).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const parts = (text: string) => (text ? text.split(':') : []);
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const missing = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: Math.max(0, missing) }, () => '0'), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
