import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';

/**
 * Object storage behind one interface: S3 in a deployed stage, a folder on local disk in the embedded
 * default. Keys are relative paths such as `merchant/7/3f2c….png`; they are what save_file returns and what
 * game records keep in logo, coverImg and images.
 */
export interface FileStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Reads a stored file back (local serving and tests); undefined when missing. */
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | undefined>;
}

export function diskFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new Error(`file key escapes the store: ${key}`);
    return path;
  };
  return {
    async put(key, body, contentType) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      await writeFile(`${path}.type`, contentType);
    },
    async get(key) {
      try {
        const path = pathOf(key);
        const [body, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
        return { body: new Uint8Array(body), contentType };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * S3 store. The SDK is imported on first use: the bundle still holds it, but its module evaluation is deferred,
 * so groups that never store a file do not pay for it at cold start.
 */
export function s3FileStore(bucket: string): FileStore {
  let loaded: Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: import('@aws-sdk/client-s3').S3Client }> | undefined;
  const load = () => (loaded ??= import('@aws-sdk/client-s3').then((s3) => ({ s3, client: new s3.S3Client({}) })));
  return {
    async put(key, body, contentType) {
      const { s3, client: c } = await load();
      await c.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      const { s3, client: c } = await load();
      try {
        const out = await c.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: await out.Body!.transformToByteArray(), contentType: out.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}
