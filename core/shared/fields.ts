import * as z from 'zod/mini';

/** Field rules shared by several domains' models. */

export const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
export const requiredText = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
export const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).check(z.maxLength(2048));

/** A relative path of a stored file (what save_file returns): no leading slash, no `..`, no scheme. */
export const relativePath = z
  .string()
  .check(
    z.maxLength(512),
    z.regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/, 'expected a relative file path such as merchant/1/logo.png'),
  );

/** A game code: unique platform-wide, used in URLs and token claims. */
export const gameCode = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1-64 letters, digits, _ or -'));

export const email = z.email().check(z.maxLength(254), z.toLowerCase());

/** Zero-based page and page size of list operations (API.md: pageSize default 20, max 100). */
export const paging = {
  page: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 0),
  pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
};
