import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** A file the service serves itself (the API reference's, the console's), as it goes out. */
export interface ServedFile {
  type: string;
  body: Uint8Array;
  gzipped: Uint8Array;
  /** The first 16 hex digits of the content's SHA-256: what a page may version the file's URL by. */
  version: string;
}

const loaded = new Map<string, Promise<ServedFile>>();

/**
 * The file `key` names, read, hashed and gzipped once per process, on its first request. A failed read (a missing
 * file) is tried again on the next request, not remembered.
 */
export function servedFile(key: string, type: string, read: () => Promise<Uint8Array>): Promise<ServedFile> {
  let file = loaded.get(key);
  if (!file) {
    file = read().then((body) => ({
      type,
      body,
      gzipped: new Uint8Array(gzipSync(body, { level: 9 })),
      version: createHash('sha256').update(body).digest('hex').slice(0, 16),
    }));
    file.catch(() => loaded.delete(key));
    loaded.set(key, file);
  }
  return file;
}

/**
 * A served file's answer: kept for a year (its URL is versioned by its content), gzipped when the request accepts
 * it. Like every answer it carries `X-Content-Type-Options: nosniff` (answer-headers.ts): a browser runs or
 * applies it only as the type it is served as.
 */
export function servedFileResponse(file: ServedFile, acceptEncoding: string | undefined): Response {
  const gzip = /\bgzip\b/.test(acceptEncoding ?? '');
  return new Response(gzip ? file.gzipped : file.body, {
    headers: {
      'content-type': file.type,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    },
  });
}

/** Text made safe inside HTML text and double- or single-quoted attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
