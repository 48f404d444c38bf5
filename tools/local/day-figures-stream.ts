import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { countDayFigures, passesMoneyFilter } from '../../core/payments/day-figures.js';
import type { PlatformDeps } from '../../core/platform/deps.js';
import { repeatEvery, type Loop } from '../../core/platform/loop.js';
import type { StreamImages } from '../../core/platform/stream-records.js';
import type { DynamoConnection } from './dynamo.js';
import { TableStreamReader } from './table-stream.js';

/**
 * The local stand-in for the deployed day figures' subscription (infra/day-figures.ts): each GetRecords batch's
 * pay order, ledger and balance records (passesMoneyFilter, the deployed filter's rule) counted into the stage
 * overview's figures (core/payments/day-figures.ts), as functions/jobs/day-figures.ts counts each batch Lambda
 * delivers. A batch whose count fails is read again at the next pass, as Lambda retries one.
 */
export class DayFiguresReader extends TableStreamReader {
  constructor(
    private readonly deps: Pick<PlatformDeps, 'db' | 'table'>,
    connection: DynamoConnection,
    startAt: 'oldest' | 'latest' = 'oldest',
  ) {
    super(deps.table, connection, startAt);
  }

  protected async consumeBatch(records: StreamRecord[]): Promise<void> {
    const money = records.filter((record) => passesMoneyFilter({ eventName: record.eventName, dynamodb: record.dynamodb as StreamImages }));
    if (money.length > 0)
      await countDayFigures(
        this.deps,
        money.map((record) => (record.dynamodb ?? {}) as StreamImages),
      );
  }
}

/**
 * The local server's loop: the table's stream read for the day figures every `intervalMs`; a failed pass is logged
 * and retried. Counting is not idempotent, so the loop reads from the stream's latest records at each start (the
 * server starts it before it serves: nothing it must count is written before), never counting again the day's
 * records a previous start counted; the deployed subscription keeps its place in the stream itself.
 */
export function startDayFiguresLoop(deps: Pick<PlatformDeps, 'db' | 'table'>, connection: DynamoConnection, intervalMs: number): Loop {
  const reader = new DayFiguresReader(deps, connection, 'latest');
  return repeatEvery(intervalMs, 'day figures', async () => {
    await reader.drain();
  });
}
