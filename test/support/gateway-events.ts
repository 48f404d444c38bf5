import { randomUUID } from 'node:crypto';

/**
 * An API Gateway HTTP API (payload format 2.0) event as the `$default` stage delivers it to a Lambda: what the
 * tests that drive a deployed handler send (lambdaHandler in functions/deployed.ts). The host defaults to
 * `api.example`; `body` goes as given (base64 text when `isBase64Encoded`); `routeKey` defaults to the
 * operation's (`METHOD /path`), `$default` for a path only the catch-all route takes.
 */
export function gatewayEvent(
  method: string,
  path: string,
  options: { query?: string; headers?: Record<string, string>; body?: string; isBase64Encoded?: boolean; sourceIp?: string; routeKey?: string } = {},
) {
  const headers = { host: 'api.example', 'user-agent': 'vitest', ...options.headers };
  const routeKey = options.routeKey ?? `${method} ${path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: options.query ?? '',
    headers,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      domainName: headers.host,
      domainPrefix: headers.host.split('.')[0]!,
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '203.0.113.7', userAgent: headers['user-agent'] },
      requestId: `apigw-${randomUUID()}`,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(options.body !== undefined ? { body: options.body } : {}),
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}
