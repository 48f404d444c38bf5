import * as z from 'zod/mini';
import { EXAMPLE, example } from './examples.js';

/**
 * A Sui address: 0x and 64 hex digits, normalised to lower case. A file of its own so that a function that
 * never reads an address does not carry the schema (a zod schema is built when its module loads).
 */
export const suiAddress = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(/^0x[0-9a-f]{64}$/, 'expected a Sui address: 0x followed by 64 hex digits'), example(EXAMPLE.address));
