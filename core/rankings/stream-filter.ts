import { SCORE_PREFIX } from './keys.js';

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
