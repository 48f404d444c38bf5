import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventHandler, IndexerDeps } from '../chain/indexer.js';
import { normalizeAddress } from '../payments/chain-payments.js';
import { canonicalType } from '../chain/names.js';
import type { ChainEvent } from '../chain/types.js';
import type { RewardsDeps } from './deps.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import { logError } from '../platform/log.js';
import { historyEntryKey } from './keys.js';
import { HistoryStatus } from './models.js';

/**
 * Claims paid on chain. The reward verifier (docs/claims.md) emits, when it pays a signed claim, an event of
 * the stage's `claimEventType` (chain settings) with these fields of the signed RewardClaim:
 *   game: ID, history_id: u64, recipient: address, amount: u64, nonce: u64
 * (u64s as the node renders them: decimal text; a JSON number is accepted too; `game` as 0x hex). Any other
 * field is ignored. The indexer hands each such event to recordClaimEvent, which moves the entry from 1 (claim
 * signed) to 2 (claimed on chain) when the event matches the entry's signed claim: its game object, recipient
 * and amount, and a nonce signed for the entry (the current claim's or one it replaced after expiry: an old
 * claim redeemed just before it expired is still a payment of the entry). It is idempotent: an entry already
 * at 2 is left as it is. An event that matches no signed claim (another game's object among them) is logged
 * and skipped (never fatal: the indexer moves on).
 */

/** The handlers of claim events: the stage's claimEventType -> recordClaimEvent (none when it is unset). */
export function claimHandlers(deps: Pick<RewardsDeps, 'chain'>): Record<string, EventHandler> {
  const type = deps.chain?.config.claimEventType;
  if (!type) return {};
  return {
    [canonicalType(type)]: async (handlerDeps, event) => {
      await recordClaimEvent(handlerDeps, event);
    },
  };
}

export interface ClaimEvent {
  /** The verifier's game object, 0x + 64 hex. */
  game: string;
  historyId: number;
  recipient: string;
  amount: string;
  nonce: string;
}

const U64_MAX = 2n ** 64n - 1n;

function readU64(value: unknown): string | undefined {
  let n: bigint;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) n = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else return undefined;
  return n <= U64_MAX ? n.toString() : undefined;
}

/** The claim an event records, or the reason it is not one. */
export function parseClaimEvent(event: ChainEvent): ClaimEvent | string {
  const json = event.parsedJson;
  const game = normalizeAddress(json.game);
  if (!game) return 'game: expected the game object id';
  const id = readU64(json.history_id);
  if (id === undefined || BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER) || id === '0') return 'history_id: expected a u64 history id';
  const recipient = normalizeAddress(json.recipient);
  if (!recipient) return 'recipient: expected an address';
  const amount = readU64(json.amount);
  if (amount === undefined) return 'amount: expected a u64';
  const nonce = readU64(json.nonce);
  if (nonce === undefined) return 'nonce: expected a u64';
  return { game, historyId: Number(id), recipient, amount, nonce };
}

export type ClaimOutcome = 'claimed' | 'already-claimed' | 'skipped';

/** Moves the entry of a claim event to status 2 (see above). */
export async function recordClaimEvent(deps: Pick<IndexerDeps, 'db' | 'table' | 'now'>, event: ChainEvent): Promise<ClaimOutcome> {
  const claim = parseClaimEvent(event);
  const where = { txDigest: event.txDigest, eventSeq: event.eventSeq, type: event.type };
  if (typeof claim === 'string') {
    await logError('claims: event skipped, not a claim in our layout', { ...where, problem: claim });
    return 'skipped';
  }
  const claimed = await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(claim.historyId),
        UpdateExpression: 'SET #status = :claimed, claimed_tx = :tx, claimed_event_seq = :seq, claimed_at = :now',
        ConditionExpression:
          '#status = :signed AND claim.game = :game AND claim.recipient = :recipient AND claim.amount = :amount AND (claim.nonce = :nonce OR contains(claim_nonces, :nonce))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':claimed': HistoryStatus.claimed,
          ':signed': HistoryStatus.signed,
          ':tx': event.txDigest,
          ':seq': event.eventSeq,
          ':now': deps.now().toISOString(),
          ':game': claim.game,
          ':recipient': claim.recipient,
          ':amount': claim.amount,
          ':nonce': claim.nonce,
        },
      }),
    ),
  );
  if (claimed) return 'claimed';
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: historyEntryKey(claim.historyId), ConsistentRead: true }));
  const item = out.Item;
  if (item?.status === HistoryStatus.claimed && item.claimed_tx === event.txDigest && item.claimed_event_seq === event.eventSeq) return 'already-claimed';
  await logError('claims: event matches no signed claim; skipped', {
    ...where,
    historyId: claim.historyId,
    problem: !item ? 'no such entry' : item.status === HistoryStatus.claimed ? 'entry already claimed by another event' : 'status or claim fields differ',
  });
  return item?.status === HistoryStatus.claimed ? 'already-claimed' : 'skipped';
}
