import { randomUUID } from 'node:crypto';

/** What one request sends: its bearer token, other headers, query and JSON body. */
export interface RequestParts {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  /** Sent as JSON (a string is sent as it is). */
  body?: unknown;
}

/** An API Gateway HTTP API (payload format 2.0) event, as the `$default` stage delivers it to a function. */
export function apiEvent(method: string, path: string, options: RequestParts = {}) {
  const host = 'bench.execute-api.us-east-1.amazonaws.com';
  const headers: Record<string, string> = { host, 'user-agent': 'bench', accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const query = options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) : undefined;
  const routeKey = `${method} ${path}`;
  return {
    version: '2.0' as const,
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(query ?? {}).toString(),
    headers,
    ...(query ? { queryStringParameters: query } : {}),
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'bench',
      domainName: host,
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  };
}

export type ApiEvent = ReturnType<typeof apiEvent>;

/** The Lambda context fields the handlers read. */
export const lambdaContext = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 };
