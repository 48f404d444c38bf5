import { platformError } from './errors.js';

/**
 * The cursors of the cursor-paged reads (a player's export sections, a studio's deleted players, a studio's
 * orders, the merchants an admin reviews): Base64url of `{o: owner, s: scope, k: where the next page starts}`
 * (DynamoDB's key to start after, or the sort key below which a merged read of several partitions goes on).
 * Opaque to callers, and not secret: the key only positions a read that the caller's own partitions bound anyway.
 * What makes it safe is the check on the way back: it must be of this owner (the player, the studio, the admin, the region)
 * and scope (the section, the read and its filters), name exactly the key attributes of that read with text
 * values, and lie inside the partition and range the read covers. Anything else is the same 400 naming
 * `cursor`, whatever was wrong, so a cursor of another caller tells nothing; and DynamoDB never sees a start key
 * it would refuse (a 500).
 */
export type StartKey = Record<string, string>;

const MAX_KEY_TEXT = 1024;

export const encodeCursor = (owner: string, scope: string, key: StartKey): string =>
  Buffer.from(JSON.stringify({ o: owner, s: scope, k: key }), 'utf8').toString('base64url');

/** What a cursor must be to be read: its owner and scope, its key's attributes, and a test of the key itself. */
export interface CursorCheck {
  owner: string;
  scope: string;
  attributes: readonly string[];
  within: (key: StartKey) => boolean;
}

/** The start key of a cursor that passes `check`; else 400 `input.invalid` naming `cursor`. */
export function decodeCursor(cursor: string, check: CursorCheck): StartKey {
  const key = keyOf(parsed(cursor), check);
  if (!key || !check.within(key)) throw notOurs();
  return key;
}

function parsed(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function keyOf(value: unknown, check: CursorCheck): StartKey | undefined {
  if (!isObject(value) || value.o !== check.owner || value.s !== check.scope || !isObject(value.k)) return undefined;
  const key = value.k;
  const names = Object.keys(key);
  if (names.length !== check.attributes.length || !check.attributes.every((name) => names.includes(name))) return undefined;
  const texts = Object.values(key).every((text) => typeof text === 'string' && text.length > 0 && text.length <= MAX_KEY_TEXT);
  return texts ? (key as StartKey) : undefined;
}

const notOurs = () => platformError('input.invalid', 'query.cursor: not the `next` of a previous page of this read');
