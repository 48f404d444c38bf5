import * as z from 'zod/mini';
import type { SomeType } from 'zod/v4/core';

/**
 * The object schema a model's `z.lazy` wraps. A stored record is derived from its API record (`z.extend`,
 * `z.pick`, `z.omit`) so that each field is declared once, and those need the object itself.
 */
export const objectOf = <T extends z.ZodMiniObject>(schema: z.ZodMiniLazy<T>): T => schema._zod.innerType;

/** A nullable attribute that items may also lack (written before it existed, or left out): read as null. */
export const nullByDefault = <T extends SomeType>(schema: T) => z._default(z.nullable(schema), null);
