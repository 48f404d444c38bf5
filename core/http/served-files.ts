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

/** Text made safe inside HTML text and double- or single-quoted attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
