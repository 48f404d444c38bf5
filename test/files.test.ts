import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createInnerApp } from '../functions/inner.js';
import { lambdaHandler } from '../functions/deployed.js';
import { MULTIPART_BODY_LIMIT } from '../core/http/multipart-body.js';
import { MAX_UPLOAD_BYTES } from '../core/merchants/uploads.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { gatewayEvent as apiGatewayEvent } from './support/gateway-events.js';

let deps: TestDeps;
let app: ReturnType<typeof createInnerApp>;
const path = '/v2-testing/merchant/file';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createInnerApp(deps);
});

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const gif = new TextEncoder().encode('GIF89a....');
const webp = new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ');
const form = (bytes: Uint8Array, name = 'picture.bin', field = 'file') => {
  const data = new FormData();
  data.set(field, new File([bytes], name, { type: 'application/octet-stream' }));
  return data;
};

describe('save_file', () => {
  it.each([
    ['png', png, 'image/png'],
    ['gif', gif, 'image/gif'],
    ['webp', webp, 'image/webp'],
  ] as const)('stores a %s recognised by its content and returns its relative path', async (ext, bytes, type) => {
    const { token, merchant } = await merchantWithToken(deps);
    const res = await call(app, 'POST', path, { token, body: form(bytes) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content_type: type, size: bytes.length });
    expect(res.body.data.path).toMatch(new RegExp(`^merchant/${merchant.id}/[0-9a-f-]{36}\\.${ext === 'png' ? 'png' : ext}$`));
    const stored = await deps.files.get(res.body.data.path);
    expect(stored?.contentType).toBe(type);
    expect([...stored!.body]).toEqual([...bytes]);
  });

  it('refuses what is not an image whatever its name (415), and an empty or missing part (400)', async () => {
    const { token } = await merchantWithToken(deps);
    const text = await call(app, 'POST', path, { token, body: form(new TextEncoder().encode('<svg/>'), 'evil.png') });
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/^body\.file/);
    expect((await call(app, 'POST', path, { token, body: form(new Uint8Array()) })).status).toBe(400);
    const wrongField = await call(app, 'POST', path, { token, body: form(png, 'a.png', 'image') });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.message).toMatch(/body\.file/);
  });

  it('needs the caller to have a merchant', async () => {
    const { token } = await accountWithToken(deps);
    expect((await call(app, 'POST', path, { token, body: form(png) })).status).toBe(404);
  });
});

/** Every file the store holds: "nothing stored" checks compare it before and after. */
const storedFiles = () => readdirSync(deps.filesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

const boundary = 'test-boundary-7MA4YWxkTrZu0gW';
const encoder = new TextEncoder();

/** One multipart/form-data body with one part, framed by hand so its exact size is known. */
function multipart(bytes: Uint8Array, { field = 'file', filename = 'picture.png' as string | null } = {}) {
  // A part without a filename is a text field, as a browser sends one: no Content-Type either.
  const head = encoder.encode(
    filename === null
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const body = new Uint8Array(head.length + bytes.length + tail.length);
  body.set(head);
  body.set(bytes, head.length);
  body.set(tail, head.length + bytes.length);
  return body;
}

/** A png of exactly `size` bytes (its signature, then zeros). */
function pngOf(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set(png);
  return bytes;
}

/** A request with a raw body and the given Content-Type (undefined: none). */
async function upload(body: RequestInit['body'] | undefined, contentType: string | undefined, token?: string, init: RequestInit = {}) {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await app.request(path, { method: 'POST', headers, body, ...init });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

describe('malformed multipart bodies: 400 naming the problem, nothing stored', () => {
  const good = () => multipart(png);
  const type = `multipart/form-data; boundary=${boundary}`;
  const cases: [string, () => { body: RequestInit['body'] | undefined; type: string | undefined }, RegExp][] = [
    ['no boundary parameter', () => ({ body: good(), type: 'multipart/form-data' }), /^body: multipart\/form-data needs a boundary/],
    ['an empty boundary parameter', () => ({ body: good(), type: 'multipart/form-data; boundary=' }), /^body: multipart\/form-data needs a boundary/],
    [
      'a boundary the body does not use',
      () => ({ body: good(), type: 'multipart/form-data; boundary=another-boundary' }),
      /^body: not a valid multipart\/form-data body/,
    ],
    ['a truncated body', () => ({ body: good().subarray(0, good().length - 20), type }), /^body: not a valid multipart\/form-data body/],
    ['a body cut inside the part headers', () => ({ body: good().subarray(0, 40), type }), /^body: not a valid multipart\/form-data body/],
    ['no body at all', () => ({ body: undefined, type }), /^body: not a valid multipart\/form-data body/],
    ['a body that is not multipart', () => ({ body: '{"file": "x"}', type }), /^body: not a valid multipart\/form-data body/],
    ['no file part', () => ({ body: multipart(png, { field: 'picture' }), type }), /^body\.file: expected a file part named "file"/],
    [
      'a text field named file',
      () => ({ body: multipart(encoder.encode('picture.png'), { filename: null }), type }),
      /^body\.file: expected a file part named "file"/,
    ],
    ['JSON', () => ({ body: '{"file": "x"}', type: 'application/json' }), /^body: expected multipart\/form-data/],
    ['a url-encoded form', () => ({ body: 'file=x', type: 'application/x-www-form-urlencoded' }), /^body: expected multipart\/form-data/],
    ['no Content-Type', () => ({ body: good(), type: undefined }), /^body: expected multipart\/form-data/],
  ];

  it.each(cases)('%s', async (_name, request, message) => {
    const { token } = await merchantWithToken(deps);
    const [files, items] = [storedFiles(), await itemCount(deps)];
    const { body, type } = request();
    const res = await upload(body, type, token);
    expect(res).toEqual({
      status: 400,
      body: {
        code: 400,
        message: expect.stringMatching(message),
        data: null,
        error: message.source.startsWith('^body\\.file') ? 'upload.file_invalid' : 'body.malformed',
      },
    });
    expect(storedFiles()).toBe(files);
    expect(await itemCount(deps)).toBe(items);
  });

  it('two file parts are 400: which one to keep would be a guess', async () => {
    const { token } = await merchantWithToken(deps);
    const files = storedFiles();
    const data = form(png);
    data.append('file', new File([gif], 'b.gif'));
    const res = await call(app, 'POST', path, { token, body: data });
    expect(res).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^body\.file: send one file part named "file", not 2$/), data: null },
    });
    expect(storedFiles()).toBe(files);
  });

  it('the media type is matched in any letter case, as HTTP says', async () => {
    const { token } = await merchantWithToken(deps);
    const res = await upload(multipart(png), `Multipart/Form-Data; boundary=${boundary}`, token);
    expect(res.status).toBe(200);
  });
});

describe('the upload limit a deployed stage accepts', () => {
  const type = `multipart/form-data; boundary=${boundary}`;

  it(`takes a file of exactly ${MAX_UPLOAD_BYTES} bytes (4 MiB) and refuses one byte more with 413`, async () => {
    expect(MAX_UPLOAD_BYTES).toBe(4 * 1024 * 1024);
    const { token } = await merchantWithToken(deps);
    const atLimit = await upload(multipart(pngOf(MAX_UPLOAD_BYTES)), type, token);
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data.size).toBe(MAX_UPLOAD_BYTES);
    expect((await deps.files.get(atLimit.body.data.path))?.body.length).toBe(MAX_UPLOAD_BYTES);

    const files = storedFiles();
    const past = await upload(multipart(pngOf(MAX_UPLOAD_BYTES + 1)), type, token);
    expect(past).toEqual({
      status: 413,
      body: { code: 413, message: `body.file: larger than ${MAX_UPLOAD_BYTES} bytes (4 MiB)`, data: null, error: 'upload.too_large' },
    });
    expect(storedFiles()).toBe(files);
  });

  it('refuses a body past the multipart limit with 413 before reading it, with or without a Content-Length', async () => {
    const { token } = await merchantWithToken(deps);
    const files = storedFiles();
    const large = multipart(pngOf(MULTIPART_BODY_LIMIT));
    const expected = {
      status: 413,
      body: { code: 413, message: expect.stringMatching(/^body: larger than the 4 MiB \+ 16 KiB/), data: null, error: 'body.too_large' },
    };
    // With its Content-Length (what API Gateway and Node's HTTP server give): judged from the header, before the token is checked.
    expect(await upload(large, type, undefined, { headers: { 'content-type': type, 'content-length': String(large.length) } })).toEqual(expected);
    // Streamed without one: refused as the stream passes the limit.
    const stream = new ReadableStream({
      start: (controller) => {
        controller.enqueue(large);
        controller.close();
      },
    });
    expect(await upload(stream, type, token, { duplex: 'half' } as RequestInit)).toEqual(expected);
    // At the limit the body is read (and its file, being past MAX_UPLOAD_BYTES, refused on its own).
    const atLimit = multipart(pngOf(MULTIPART_BODY_LIMIT - multipart(new Uint8Array()).length));
    expect(atLimit.length).toBe(MULTIPART_BODY_LIMIT);
    expect((await upload(atLimit, type, token)).body.message).toMatch(/^body\.file: larger than/);
    expect(storedFiles()).toBe(files);
  });

  /**
   * What the inner function receives in a stage: an API Gateway HTTP API (payload v2) event whose binary body is
   * base64-encoded, inside Lambda's 6 MB (6,291,456 bytes) synchronous invocation payload. Headers are padded to
   * API Gateway's 10,240-byte limit on the request line and headers, the worst a client can send.
   */
  function gatewayEvent(body: Uint8Array, token: string) {
    const host = 'abcdef1234.execute-api.eu-west-1.amazonaws.com';
    const headers = {
      host,
      authorization: `Bearer ${token}`,
      'content-type': type,
      'content-length': String(body.length),
      'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      'x-amzn-trace-id': 'Root=1-67891233-abcdef012345678912345678',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
    };
    const used = `POST ${path} HTTP/1.1\r\n`.length + Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
    const padded = { ...headers, 'x-padding': '"'.repeat(10_240 - used - 'x-padding'.length - 4) };
    return apiGatewayEvent('POST', path, { headers: padded, body: Buffer.from(body).toString('base64'), isBase64Encoded: true });
  }
  const LAMBDA_SYNC_PAYLOAD = 6 * 1024 * 1024;
  const invoke = (event: ReturnType<typeof gatewayEvent>) =>
    lambdaHandler(createInnerApp, async () => deps)(event as never, { awsRequestId: randomUUID() } as never) as Promise<{ statusCode: number; body: string }>;

  it('an upload at the limit, base64-encoded in an API Gateway v2 event, fits the 6 MB Lambda payload and is stored through the Lambda handler', async () => {
    const { token } = await merchantWithToken(deps);
    const event = gatewayEvent(multipart(pngOf(MAX_UPLOAD_BYTES)), token);
    expect(JSON.stringify(event).length).toBeLessThan(LAMBDA_SYNC_PAYLOAD);
    const res = await invoke(event);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).data.size).toBe(MAX_UPLOAD_BYTES);
  });

  it('so does the largest body the function reads at all, with room to spare', async () => {
    const { token } = await merchantWithToken(deps);
    const largest = multipart(pngOf(MULTIPART_BODY_LIMIT - multipart(new Uint8Array()).length));
    const size = JSON.stringify(gatewayEvent(largest, token)).length;
    expect(size).toBeLessThan(LAMBDA_SYNC_PAYLOAD - 512 * 1024);
    // One byte past it is refused by the function in the path's envelope, not parsed.
    const past = multipart(pngOf(MULTIPART_BODY_LIMIT + 1 - multipart(new Uint8Array()).length));
    const res = await invoke(gatewayEvent(past, token));
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 413, message: expect.stringMatching(/^body: larger than/), data: null });
  });
});
