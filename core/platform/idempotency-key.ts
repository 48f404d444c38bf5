import { platformError } from './errors.js';

/**
 * The Idempotency-Key header's format, apart from the records it keys (idempotency.ts), so that the HTTP layer
 * checks it without loading the table's client (the meta function, which has no table, checks none but loads
 * the HTTP layer).
 */

/** The published key format: 1-128 of `[A-Za-z0-9_.:-]`. */
const KEY = '[A-Za-z0-9_.:-]{1,128}';

/**
 * The header's value as the service takes it: the key bare (`k`) or as the draft's sf-string (`"k"`, RFC 8941
 * §3.3.3), the same key either way. The OpenAPI document publishes this expression as the header's `pattern`
 * (core/http/openapi.ts), so a generated client or validator takes exactly what the service takes.
 */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:${KEY}|"${KEY}")$`;
const HEADER_FORMAT = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The key of an `Idempotency-Key` header value (without its quotes), undefined without the header; 400 when malformed. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!HEADER_FORMAT.test(header))
    throw platformError('idempotency.key_invalid', 'Idempotency-Key: expected 1-128 letters, digits, _ . : or -, bare or in double quotes');
  return header.startsWith('"') ? header.slice(1, -1) : header;
}
