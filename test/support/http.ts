import type { Hono } from 'hono';

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The body as sent, byte for byte (a replay's answer is compared with the first's so). */
  text: string;
  headers: Headers;
}

/** One real HTTP request through the app (Hono's `app.request`), JSON in and out. */
export async function call(app: Hono, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'];
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await app.request(`${path}${query}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}
