/** Error causes several route tables share (the reference shows them per operation). */
export const merchantToken = { 401: 'no token, or an invalid or expired merchant token' } as const;
export const platformToken = { 401: 'no token, or an invalid or expired platform token' } as const;
export const serverToken = { 401: 'no token, or an invalid or expired server token' } as const;

/** addWin and submitgamescore: a report of a game's results. */
export const scoreReportErrors = {
  400: 'a field is missing or invalid',
  ...serverToken,
  403: "the game is another merchant's",
  404: 'no game with that code',
  409: 'the result id was reported with other content, or the scores changed concurrently too often',
} as const;
