import { logError } from '../platform/log.js';
import { describeError } from '../platform/loop.js';
import { SCORE_PREFIX } from './keys.js';
import { type ItemChange, readScoreRecord } from './rank-stream.js';
import { keysOf, type StreamImages } from '../platform/stream-records.js';

export type { StreamImages };

/**
 * Which of the table's stream records the boards' head consumer is given: those of score items (partition key
 * starting with SCORE_PREFIX). Deployed, it is the subscription's event filter (infra/rank-pages.ts), applied by
 * Lambda before the function runs; locally, the server's stream reader applies the same rule
 * (passesScoreFilter), so that both consumers are given the same records and neither decodes another item's.
 */
export const scoreRecordsFilter = { dynamodb: { Keys: { pk: { S: [{ prefix: SCORE_PREFIX }] } } } };

/**
 * Whether a stream record passes scoreRecordsFilter: judged on its keys alone, in DynamoDB's wire form, as
 * Lambda judges it. Every record has its keys (insert, modify and remove alike); its images are not read, so a
 * record of another item passes nothing through a decoder that might fail on it.
 */
export function passesScoreFilter(record: { Keys?: Record<string, { S?: string }> }): boolean {
  const pk = record.Keys?.pk?.S;
  return typeof pk === 'string' && pk.startsWith(SCORE_PREFIX);
}

/**
 * A batch's score records read, in order, as both consumers read them (functions/jobs/rank-pages.ts deployed,
 * tools/local/score-stream.ts locally): records scoreRecordsFilter does not pass are not theirs; a record
 * that cannot be read is counted and handed to `skipped` (which logs it), so that it holds up no other.
 */
export async function readScoreRecords(
  records: readonly StreamImages[],
  skipped: (images: StreamImages, error: unknown) => Promise<void>,
): Promise<{ changes: ItemChange[]; unreadable: number }> {
  const changes: ItemChange[] = [];
  let unreadable = 0;
  for (const images of records) {
    if (!passesScoreFilter(images)) continue;
    try {
      changes.push(readScoreRecord(images));
    } catch (error) {
      unreadable++;
      await skipped(images, error);
    }
  }
  return { changes, unreadable };
}

/** The log line of a skipped record: its keys and sequence number, never its images. */
export const logSkippedRecord = (images: StreamImages, error: unknown) =>
  logError('rank pages: a stream record could not be read; skipped', {
    sequence_number: images.SequenceNumber ?? '',
    keys: keysOf(images),
    error: describeError(error),
  }).catch(() => {});
