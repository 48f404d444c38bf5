import type * as z from 'zod/mini';

/**
 * The object schema a model's `z.lazy` wraps. A stored record is derived from its API record (`z.extend`,
 * `z.pick`, `z.omit`) so that each field is declared once, and those need the object itself.
 */
export const objectOf = <T extends z.ZodMiniObject>(schema: z.ZodMiniLazy<T>): T => schema._zod.innerType;
