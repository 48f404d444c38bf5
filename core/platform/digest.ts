import { createHash } from 'node:crypto';

/**
 * SHA-256 of a text as Base64url (43 characters): how the platform keys and compares what it must not store
 * in the clear or must compare by content (secrets, codes and tokens it issued, purchase tokens, request
 * fingerprints, PKCE challenges).
 */
export const sha256Url = (text: string): string => createHash('sha256').update(text).digest('base64url');
