/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1): the scheme in any case, then one
 * token; undefined for no header, another scheme, or anything but one token. Every reader of the header parses
 * it here, so a token one of them accepts is a token all of them accept; each answers a missing one its own way.
 */
export const bearerTokenOf = (header: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
