import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../core/deps.js';
import { PACKAGE_FILES, REFERENCE_VERSION, referenceAssetsDir } from '../core/http/reference-assets.js';
import { lambdaHandler } from '../functions/deployed.js';
import { createMetaApp } from '../functions/meta.js';
import { gatewayEvent } from './support/gateway-events.js';

/**
 * The API reference's files as a deployed stage serves them (docs/api.md, "The API reference"): the meta function's
 * Lambda handler, with API Gateway events, reading the files from the folder infra copies them to
 * (REFERENCE_ASSETS_DIR, here a copy made like infra/functions.ts's copyFiles, each file marked so that an answer
 * read from node_modules instead would show). Gzipped answers go through API Gateway base64-encoded.
 */
const STAGE = 'v2-testing';
const metaDeps = async () => ({ stage: STAGE, production: false, now: () => new Date() }) as unknown as Deps;
const handler = lambdaHandler(createMetaApp, metaDeps);
let folder: string;
const previous = process.env.REFERENCE_ASSETS_DIR;

beforeAll(async () => {
  // The installed package's file served first, by the same process: the deployed copy must
  // still be what is served once the folder is named.
  expect((await invoke(assetEvent('/v2-testing/docs/assets/swagger-ui-bundle.js', ''))).statusCode).toBe(200);
  folder = mkdtempSync(join(tmpdir(), 'reference-'));
  for (const file of Object.keys(PACKAGE_FILES)) {
    copyFileSync(join(referenceAssetsDir({}), file), join(folder, file));
    writeFileSync(join(folder, file), `${readFileSync(join(folder, file), 'utf8')}\n/* deployed copy */\n`);
  }
  process.env.REFERENCE_ASSETS_DIR = folder;
});

afterAll(() => {
  if (previous === undefined) delete process.env.REFERENCE_ASSETS_DIR;
  else process.env.REFERENCE_ASSETS_DIR = previous;
});

/** A GET of a path no operation route names for API Gateway but the catch-all's (`$default`), as deployed. */
const assetEvent = (path: string, query: string, headers: Record<string, string> = {}) => gatewayEvent('GET', path, { query, headers, routeKey: '$default' });

const invoke = (event: ReturnType<typeof assetEvent>) =>
  handler(event as never, { awsRequestId: randomUUID(), functionName: 'MetaFunction' } as never) as Promise<{
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    isBase64Encoded: boolean;
  }>;

describe('the reference files through the deployed meta function', () => {
  it('answers the deployed copy gzipped and base64-encoded when the browser accepts gzip, cached for a year', async () => {
    const res = await invoke(assetEvent('/v2-testing/docs/assets/swagger-ui-bundle.js', `v=${REFERENCE_VERSION}`, { 'accept-encoding': 'gzip, deflate, br' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    });
    expect(res.isBase64Encoded).toBe(true);
    const body = gunzipSync(Buffer.from(res.body, 'base64')).toString('utf8');
    // The marker first: a failure names the copy served without printing the whole bundle.
    expect(body.endsWith('/* deployed copy */\n')).toBe(true);
    expect(body === readFileSync(join(folder, 'swagger-ui-bundle.js'), 'utf8')).toBe(true);
  });

  it('answers the plain file to a client that does not accept gzip', async () => {
    const res = await invoke(assetEvent('/hero-testing/docs/assets/swagger-ui.css', ''));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.isBase64Encoded).toBe(false);
    expect(res.body).toBe(readFileSync(join(folder, 'swagger-ui.css'), 'utf8'));
  });

  it("refuses any other file with a 400 naming the parameter, in the path's envelope", async () => {
    const res = await invoke(assetEvent('/v2-testing/docs/assets/..%2F..%2Fpackage.json', ''));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^path\.file/) });
  });
});
