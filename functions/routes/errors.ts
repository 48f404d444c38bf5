import { BATCH_READ_BUSY } from '../../core/platform/batch.js';

/** Error causes several route tables share (the reference shows them per operation). */
export const merchantToken = { 401: 'no token, or an invalid or expired merchant token' } as const;
export const platformToken = { 401: 'no token, or an invalid or expired platform token' } as const;
export const serverToken = { 401: 'no token, or an invalid or expired server token' } as const;
/**
 * An operation whose handler batch-reads (core/platform/batch.ts). Console and server token operations need not
 * list it: their account state is a batch read, which core/http/policy-text.ts errorsOf adds for all of them.
 */
export const batchRead = { 503: BATCH_READ_BUSY } as const;

/** addWin and submitgamescore: a report of a game's results. */
export const scoreReportErrors = {
  400: 'a field is missing or invalid',
  ...serverToken,
  403: "the game is another merchant's",
  404: 'no game with that code',
  409: 'the result id was reported with other content, or the scores changed concurrently too often',
  503: "the game's board shards change for its current season within the next minute and a half (Retry-After says when); nothing was recorded",
} as const;

/** addWin: a report of one player's results, who may have deleted their account. */
export const addWinErrors = { ...scoreReportErrors, 404: 'no game with that code, or the player deleted their account' } as const;
