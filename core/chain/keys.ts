import { canonicalType } from './names.js';

/**
 * The chain domain's keys, built here alone (indexer.ts holds the indexer's access pattern).
 */
/** "an event type's cursor" (core/chain/indexer.ts): pk `CURSOR#<event type, full form>`, sk `CURSOR`. */
export const cursorKey = (eventType: string) => ({ pk: `CURSOR#${canonicalType(eventType)}`, sk: 'CURSOR' });
