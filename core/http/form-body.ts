import type { Context } from 'hono';
import { httpError } from './errors.js';
import { platformError } from '../platform/errors.js';
import { applyBodyLimit, mediaTypeOf } from './json-body.js';

/**
 * Form bodies (`application/x-www-form-urlencoded`), as OAuth 2.0's token endpoint takes them (RFC 6749 §3.2,
 * appendix B): another media type is 415; the body is at most JSON_BODY_LIMIT bytes (413); a parameter given
 * more than once is 400 (§3.1, §3.2: "MUST NOT be included more than once"); a parameter sent without a value
 * is read as absent (§3.1).
 */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

export const formBodyErrors = { 415: `the body is not sent with Content-Type: ${FORM_TYPE}` } as const;

/** Checks the media type and the size (before the token is verified), then reads the parameters. */
export async function readFormBody(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type');
  if (type === undefined || mediaTypeOf(type) !== FORM_TYPE) {
    throw httpError('body.unsupported_type', `body: Content-Type must be ${FORM_TYPE}${type === undefined ? '' : `, not ${type.slice(0, 100)}`}`);
  }
  await applyBodyLimit(c);
  const params = new URLSearchParams(await c.req.text());
  // No prototype while filling: a parameter named __proto__ is a key like any other, not a prototype.
  const body: Record<string, string> = Object.create(null);
  for (const [name, value] of params) {
    if (params.getAll(name).length > 1) throw platformError('input.invalid', `body.${name}: given more than once`);
    if (value !== '') body[name] = value;
  }
  return { ...body };
}
