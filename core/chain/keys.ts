import { canonicalType } from './names.js';

/**
 * The chain domain's keys, built here alone (indexer.ts holds the indexer's access pattern).
 */
/** The partition prefix and the sort key of an event type's cursor. */
export const CURSOR_PREFIX = 'CURSOR#';
export const CURSOR_SORT = 'CURSOR';
/** "an event type's cursor" (core/chain/indexer.ts): pk `CURSOR#<event type, full form>`, sk `CURSOR`. */
export const cursorKey = (eventType: string) => ({ pk: `${CURSOR_PREFIX}${canonicalType(eventType)}`, sk: CURSOR_SORT });
