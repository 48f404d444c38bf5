import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChainDeps } from '../chain/deps.js';
import type { EventHandler } from '../chain/indexer.js';
import { canonicalType } from '../chain/names.js';
import type { ChainEvent } from '../chain/types.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import { claimHandlers } from '../rewards/claim-events.js';
import { dayOf } from './days.js';
import { gameDayKey, sponsoredKey } from './keys.js';
import { sponsoredOf } from './records.js';

/**
 * The gas a sponsored claim really cost, recorded when the indexer sees its claim event: the sponsor's SUI change
 * in the transaction's balance changes (what it paid, after the storage rebate), first on the entry's sponsored
 * record (once: on condition it has none), then ADDed to the game's day of the signing as `gas_spent`, beside the
 * budgets signed. A crash between the two loses that claim's figure on the day, never counts it twice. A sponsored
 * transaction that aborted emits no claim event: its gas is in the budgets signed, not in `gas_spent`.
 */

const SUI = canonicalType('0x2::sui::SUI');

/** The claim events' handlers (rewards' claim-events.ts), each followed by the gas its transaction cost the sponsor. */
export function claimAndGasHandlers(deps: Pick<ChainDeps, 'chain'>): Record<string, EventHandler> {
  return Object.fromEntries(
    Object.entries(claimHandlers(deps)).map(([type, handle]) => [
      type,
      async (handlerDeps, event) => {
        await handle(handlerDeps, event);
        await recordGasSpent(handlerDeps as ChainDeps, event);
      },
    ]),
  );
}

export async function recordGasSpent(deps: Pick<ChainDeps, 'db' | 'table' | 'now' | 'chain'>, event: ChainEvent): Promise<void> {
  const id = Number(event.parsedJson.history_id);
  if (!Number.isSafeInteger(id) || !deps.chain) return;
  const sponsored = await sponsoredOf(deps, id);
  if (sponsored?.state !== 'signed' || sponsored.digest !== event.txDigest || sponsored.spent !== undefined) return;
  const changes = await deps.chain.source.balanceChanges(event.txDigest);
  const paid = (changes ?? []).filter((change) => change.owner === sponsored.sponsor && change.coinType === SUI);
  if (paid.length === 0) return;
  const spent = -paid.reduce((sum, change) => sum + BigInt(change.amount), 0n);
  const recorded = await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: sponsoredKey(id),
        UpdateExpression: 'SET spent = :spent',
        ConditionExpression: 'attribute_not_exists(spent) AND digest = :digest',
        ExpressionAttributeValues: { ':spent': spent.toString(), ':digest': event.txDigest },
      }),
    ),
  );
  if (!recorded) return;
  if (!sponsored.game_code || !sponsored.signed_at) return;
  await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: gameDayKey(sponsored.game_code, dayOf(new Date(sponsored.signed_at))),
        UpdateExpression: 'ADD gas_spent :spent',
        // The day's item, while it is kept: a day expired since is not made again.
        ConditionExpression: 'attribute_exists(claims)',
        ExpressionAttributeValues: { ':spent': spent },
      }),
    ),
  );
}
