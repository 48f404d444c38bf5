import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StoresDeps } from './deps.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { logError } from '../platform/log.js';

/**
 * The record of a store notification (App Store or Google Play), written after the notification was handled
 * and on `condition`, so a redelivery answers `duplicate`. When the condition fails, a racing delivery recorded
 * it first; its effects and ours were the same once-only ones. When the table fails and this delivery had
 * written an effect (`effects` names those outcomes: tickets credited or taken back), a 503 would answer a
 * failure for a change that stays (docs/reliability.md), and a redelivery would change nothing more: the effect
 * stands and is acknowledged, and only the missing record is logged (`what`, with `context`). Without an
 * effect, the failure is thrown (503, nothing written).
 */
export async function recordNotification(
  deps: Pick<StoresDeps, 'db' | 'table'>,
  record: { item: Record<string, unknown>; condition: string; outcome: string },
  effects: ReadonlySet<string>,
  what: string,
  context: Record<string, unknown>,
): Promise<void> {
  try {
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: record.item, ConditionExpression: record.condition }));
  } catch (error) {
    if (isConditionalFailure(error)) return;
    if (!effects.has(record.outcome)) throw error;
    await logError(what, { ...context, outcome: record.outcome, reason: (error as Error).message });
  }
}
