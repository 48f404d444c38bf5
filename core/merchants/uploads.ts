import { randomUUID } from 'node:crypto';
import type { PlatformDeps } from '../platform/deps.js';
import { merchantError } from './errors.js';
import { requireMerchant } from './merchants.js';

/**
 * The largest image save_file stores: 4 MiB, so that the whole multipart body, base64-encoded in the Lambda
 * event, fits Lambda's 6 MB payload (the arithmetic: MULTIPART_BODY_LIMIT in core/http/multipart-body.ts, which
 * adds room for the part headers). Larger images are not taken: docs/api.md "Uploads" says why there is no
 * direct-to-S3 upload.
 */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;

/** Image types accepted by save_file, recognised by their leading bytes, never by the name or the header. */
const signatures: { type: string; ext: string; matches: (b: Uint8Array) => boolean }[] = [
  { type: 'image/png', ext: 'png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', ext: 'jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', ext: 'gif', matches: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { type: 'image/webp', ext: 'webp', matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
];

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((value, i) => bytes[i] === value);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

export function detectImageType(bytes: Uint8Array) {
  return signatures.find((signature) => signature.matches(bytes));
}

/** save_file: stores one image of the caller's merchant and returns its relative path. */
export async function saveMerchantFile(deps: PlatformDeps, accountId: string, file: unknown) {
  // Several parts named file: storing the first or the last would be a guess about what the caller meant.
  if (Array.isArray(file)) throw merchantError('upload.file_invalid', `body.file: send one file part named "file", not ${file.length}`);
  if (!(file instanceof File)) throw merchantError('upload.file_invalid', 'body.file: expected a file part named "file"');
  if (file.size === 0) throw merchantError('upload.file_invalid', 'body.file: file is empty');
  if (file.size > MAX_UPLOAD_BYTES) throw merchantError('upload.too_large', `body.file: larger than ${MAX_UPLOAD_BYTES} bytes (4 MiB)`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectImageType(bytes);
  if (!kind) throw merchantError('upload.not_image', 'body.file: expected a png, jpeg, webp or gif image');
  const merchant = await requireMerchant(deps, accountId);
  const path = `merchant/${merchant.id}/${randomUUID()}.${kind.ext}`;
  await deps.files.put(path, bytes, kind.type);
  return { path, content_type: kind.type, size: bytes.length };
}
