import { beforeAll, describe, expect, it } from 'vitest';
import { createInnerApp } from '../functions/inner.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';

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

  it('refuses more than 5 MiB with 413', async () => {
    const { token } = await merchantWithToken(deps);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(png);
    const res = await call(app, 'POST', path, { token, body: form(big) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 413, message: expect.stringContaining('body.file'), data: null });
  });

  it('needs the caller to have a merchant', async () => {
    const { token } = await accountWithToken(deps);
    expect((await call(app, 'POST', path, { token, body: form(png) })).status).toBe(404);
  });
});
