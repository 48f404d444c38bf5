import * as z from 'zod/mini';
import { en } from 'zod/locales';
import type { Context } from 'hono';
import { platformError } from '../platform/errors.js';

// zod/mini ships without messages ("Invalid input"); the English locale names what was expected and received.
z.config(en());

export type Where = 'body' | 'query' | 'path';

/**
 * Parses `value` with `schema` or throws a 400 whose message names the field, e.g.
 * `body.social_links.0.url: Invalid URL`. Only the first issue is reported: it is the one to fix first.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, where: Where): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = [where, ...issue.path.map(String)].join('.');
  throw platformError('input.invalid', `${field}: ${issue.message}`);
}

/**
 * The query parameters, each given once: a parameter repeated (`?userId=a&userId=b`) is 400 naming it, rather
 * than one of its values read silently (which one a proxy, a cache or a log reads may differ).
 */
export function singleQuery(c: Context): Record<string, string> {
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) throw platformError('input.invalid', `query.${name}: given more than once`);
  }
  return c.req.query();
}
