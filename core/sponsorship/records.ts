import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionHeld } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { sponsoredKey } from './keys.js';

/**
 * "a sponsored claim" (keys.ts sponsoredKey): the one transaction signed for a history entry, and the signing that
 * makes it. A request takes the entry's signing first (a conditional Put of `state: signing`), then charges the
 * days, reserves a coin, signs, and replaces it with the signed transaction. So concurrent requests for one entry
 * sign one transaction on one coin: the others wait a moment for it and answer it. A signing whose request died
 * is taken over once STALE_MS have passed.
 */

const STALE_MS = 30_000;

const Signed = z.object({
  state: z.literal('signed'),
  nonce: z.string(),
  transaction: z.string(),
  digest: z.string(),
  sponsor_signature: z.string(),
  sponsor: z.string(),
  gas_budget: z.string(),
  gas_price: z.string(),
  epoch: z.string(),
  coin: z.string(),
  coin_version: z.string(),
  /** The entry's game and when it was signed: the game's day its budget was charged to. */
  game_code: z.optional(z.string()),
  signed_at: z.optional(z.string()),
  /** What the transaction cost the sponsor, MIST, once its claim event was seen (spent.ts). */
  spent: z.optional(z.string()),
});
export type Signed = z.infer<typeof Signed>;
const Signing = z.object({ state: z.literal('signing'), nonce: z.string(), at: z.string() });
/** "a sponsored claim" as stored: the entry's signing under way, or the transaction it signed. */
export const Sponsored = z.discriminatedUnion('state', [Signed, Signing]);
type Sponsored = z.infer<typeof Sponsored>;

type Deps = Pick<PlatformDeps, 'db' | 'table' | 'now'>;

export async function sponsoredOf(deps: Deps, id: number): Promise<Sponsored | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: sponsoredKey(id), ConsistentRead: true }));
  return out.Item ? Sponsored.parse(out.Item) : undefined;
}

/**
 * Takes the entry's signing over `earlier` (none, a signed transaction no longer pending, or a stale signing);
 * answers this signing's mark, or undefined when another request holds it.
 */
export async function takeSigning(deps: Deps, id: number, nonce: string, earlier: Sponsored | undefined): Promise<string | undefined> {
  const at = deps.now().toISOString();
  if (earlier?.state === 'signing' && Date.parse(earlier.at) > deps.now().getTime() - STALE_MS) return undefined;
  const condition =
    earlier === undefined
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : earlier.state === 'signed'
        ? { ConditionExpression: 'digest = :earlier', ExpressionAttributeValues: { ':earlier': earlier.digest } }
        : { ConditionExpression: '#state = :signing AND #at = :earlier', ExpressionAttributeValues: { ':signing': 'signing', ':earlier': earlier.at } };
  const taken = await conditionHeld(
    deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...sponsoredKey(id), type: 'sponsored_claim', state: 'signing', nonce, at },
        ...condition,
        ...(earlier?.state === 'signing' ? { ExpressionAttributeNames: { '#state': 'state', '#at': 'at' } } : {}),
      }),
    ),
  );
  return taken ? at : undefined;
}

/** Replaces this request's signing with the transaction it signed. */
export async function storeSigned(deps: Deps, id: number, at: string, signed: Omit<Signed, 'state' | 'signed_at' | 'spent'>): Promise<void> {
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...sponsoredKey(id), type: 'sponsored_claim', state: 'signed', ...signed, signed_at: deps.now().toISOString() },
      ConditionExpression: '#state = :signing AND #at = :at',
      ExpressionAttributeNames: { '#state': 'state', '#at': 'at' },
      ExpressionAttributeValues: { ':signing': 'signing', ':at': at },
    }),
  );
}

/** Gives up this request's signing (a refusal after it was taken: the days' limits, no free coin). */
export async function dropSigning(deps: Deps, id: number, at: string): Promise<void> {
  await conditionHeld(
    deps.db.send(
      new DeleteCommand({
        TableName: deps.table,
        Key: sponsoredKey(id),
        ConditionExpression: '#state = :signing AND #at = :at',
        ExpressionAttributeNames: { '#state': 'state', '#at': 'at' },
        ExpressionAttributeValues: { ':signing': 'signing', ':at': at },
      }),
    ),
  );
}

/** The transaction another request is signing for the entry, once it is stored (a few short waits); undefined if not. */
export function signedMeanwhile(deps: Deps, id: number, nonce: string): Promise<Signed | undefined> {
  return retrying(
    async () => {
      const now = await sponsoredOf(deps, id);
      if (now?.state === 'signed' && now.nonce === nonce) return now;
      return now?.state === 'signing' ? AGAIN : undefined;
    },
    { attempts: 10, giveUp: () => undefined },
  );
}
