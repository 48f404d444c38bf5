import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';
import { platformError } from './errors.js';
import type { TokenKeyRing } from './tokens.js';

/**
 * The cursors of the cursor-paged reads (a player's export sections, a studio's deleted players, a studio's
 * orders, the merchants an admin reviews, a region's store clients): Base64url of `{o: owner, s: scope, k: where
 * the next page starts, m: seal}` (`k` is DynamoDB's key to start after, the sort key below which a merged read
 * of several partitions goes on, or a place inside a read's lines: an item's sort key and the ref of the last line
 * given). Opaque to callers, and not secret. The seal is a MAC of owner, scope and key
 * with the stage's cursor key, so a cursor is good only as this service wrote it: one moved to another place of
 * the caller's own list (which its other checks would let through) is refused like one of another caller.
 * On the way back a cursor must also be of this owner (the player, the studio, the admin, the region) and scope
 * (the section, the read and its filters), name exactly the key attributes of that read with text values, and
 * lie inside the partition and range the read covers, so DynamoDB never sees a start key it would refuse (a 500)
 * even from a cursor sealed before a read changed. Anything else is the same 400 naming `cursor`, whatever was
 * wrong, so a cursor of another caller tells nothing.
 */
export type StartKey = Record<string, string>;

/**
 * The key cursors are sealed with: a KeyObject, so that a log of the deps never prints it. Deployed, infra derives
 * its text from the token key ring (cursorSecretOf) and links it to the functions that page with cursors
 * (`CursorKey`, functions/deployed.ts).
 */
export type CursorKey = KeyObject;

/** What sealing and reading a cursor take of the deps (PlatformDeps has it). */
export interface CursorDeps {
  cursorKey: CursorKey;
}

/** The cursor key of its text (Base64url of 32 bytes), as the CursorKey resource holds it. */
export const cursorKeyOf = (secret: string): CursorKey => createSecretKey(Buffer.from(secret, 'base64url'));

/**
 * The cursor key's text for a token key ring: derived (HKDF-SHA-256, a label of its own) from the private part of
 * the ring's current key, so a stage has no other secret to set and the key is never a token key. It changes when
 * the current key does (a rotation's promote or replace): the cursors sealed before are then refused, and a
 * reader starts again from the first page.
 */
export function cursorSecretOf(ring: TokenKeyRing): string {
  const derived = hkdfSync('sha256', Buffer.from(ring.current.d, 'base64url'), '', 'game-platform cursor seal', 32);
  return Buffer.from(derived).toString('base64url');
}

/** A seal is the MAC's first 16 bytes: a forger's chance is 2^-128, and cursors stay short. */
const SEAL_BYTES = 16;
const MAX_KEY_TEXT = 1024;

const sealOf = (deps: CursorDeps, owner: string, scope: string, key: unknown): Buffer =>
  createHmac('sha256', deps.cursorKey)
    .update(JSON.stringify([owner, scope, key]))
    .digest()
    .subarray(0, SEAL_BYTES);

export const encodeCursor = (deps: CursorDeps, owner: string, scope: string, key: StartKey): string =>
  Buffer.from(JSON.stringify({ o: owner, s: scope, k: key, m: sealOf(deps, owner, scope, key).toString('base64url') }), 'utf8').toString('base64url');

/** What a cursor must be to be read: its owner and scope, its key's attributes, and a test of the key itself. */
export interface CursorCheck {
  owner: string;
  scope: string;
  attributes: readonly string[];
  within: (key: StartKey) => boolean;
}

/** The start key of a cursor sealed for `check`'s owner and scope that passes it; else 400 `input.invalid` naming `cursor`. */
export function decodeCursor(deps: CursorDeps, cursor: string, check: CursorCheck): StartKey {
  const value = parsed(cursor);
  const key = keyOf(value, check);
  if (!key || !sealed(deps, value as { m?: unknown }, check, key) || !check.within(key)) throw notOurs();
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

/** Whether the cursor's seal is the one this owner, scope and key (in the cursor's own attribute order) get. */
function sealed(deps: CursorDeps, value: { m?: unknown }, check: CursorCheck, key: StartKey): boolean {
  if (typeof value.m !== 'string') return false;
  const given = Buffer.from(value.m, 'base64url');
  const expected = sealOf(deps, check.owner, check.scope, key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const notOurs = () => platformError('input.invalid', 'query.cursor: not the `next` of a previous page of this read');
