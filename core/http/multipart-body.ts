import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { httpError } from './errors.js';

/**
 * The largest multipart body an operation reads: 4 MiB of file (save_file's MAX_UPLOAD_BYTES) plus 16 KiB for
 * the part headers and boundaries around it. Why not more: in a stage, the body reaches the function inside an
 * API Gateway HTTP API (v2) event, base64-encoded (4/3 of its size), and the whole event must fit Lambda's
 * 6 MB (6,291,456 bytes) synchronous invocation payload. At this limit the body is 5,614,252 bytes of base64;
 * the request line and headers API Gateway lets through (10,240 bytes, some of them escaped in JSON) and the
 * request context add some tens of KB, which leaves more than 600 KB spare (test/files.test.ts builds the
 * event). 5 MiB, the former limit, is 6,990,508 bytes of base64 alone: refused by Lambda before any code ran.
 */
export const MULTIPART_BODY_LIMIT = 4 * 1024 * 1024 + 16 * 1024;
const MULTIPART_BODY_LIMIT_TEXT = '4 MiB + 16 KiB (4,210,688 bytes)';

export const multipartTooLarge = () => httpError('body.too_large', `body: larger than the ${MULTIPART_BODY_LIMIT_TEXT} a multipart body may be`);

const limit = bodyLimit({
  maxSize: MULTIPART_BODY_LIMIT,
  onError: () => {
    throw multipartTooLarge();
  },
});

/**
 * Refuses a body past MULTIPART_BODY_LIMIT with 413 before anything buffers it: from its Content-Length (what
 * API Gateway's adapter and Node's HTTP server give), or, streamed without one, as the stream passes the limit
 * (Hono's `bodyLimit`, which then hands on the buffered body). Run before the token is verified, like the
 * JSON body rules (core/http/json-body.ts).
 */
export async function applyMultipartSizeLimit(c: Context): Promise<void> {
  let passed = false;
  await limit(c, async () => {
    passed = true;
  });
  if (!passed) throw multipartTooLarge();
}

/** `multipart/form-data` in any letter case, with a non-empty `boundary` parameter (quoted or not). */
const mediaTypeOf = (header: string) => header.split(';', 1)[0]!.trim().toLowerCase();
const hasBoundary = (header: string) => /;\s*boundary\s*=\s*("[^"]+"|[^\s;"]+)/i.test(header);

/**
 * Reads a multipart/form-data body into its fields: a part with a filename is a File, any other a string, and
 * a name sent more than once is an array (the operation decides what it takes). A wrong media type, a missing
 * boundary or a body that does not parse (truncated, another boundary, not multipart at all) is 400: the
 * parser's own error would be a 500.
 */
export async function readMultipartBody(c: Context): Promise<Record<string, string | File | (string | File)[]>> {
  const type = c.req.header('content-type');
  if (type === undefined || mediaTypeOf(type) !== 'multipart/form-data') {
    throw httpError(
      'body.malformed',
      `body: expected multipart/form-data${type === undefined ? ' (no Content-Type was sent)' : `, not ${type.slice(0, 100)}`}`,
    );
  }
  if (!hasBoundary(type)) throw httpError('body.malformed', 'body: multipart/form-data needs a boundary parameter in its Content-Type');
  try {
    return await c.req.parseBody({ all: true });
  } catch {
    throw httpError(
      'body.malformed',
      'body: not a valid multipart/form-data body (empty, truncated, or its parts do not use the boundary of its Content-Type)',
    );
  }
}
