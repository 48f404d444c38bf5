import type { MiddlewareHandler } from 'hono';

/**
 * Headers every answer of the service carries, whatever made it: an operation's JSON, an error, a 404, a redirect,
 * a page or a served file. `X-Content-Type-Options: nosniff`: a browser takes an answer as the media type it is
 * served as and never guesses another from its bytes, so a JSON answer that echoes input is never run as a script
 * or shown as a page, and a script or stylesheet is used only when it is served as one.
 */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

/** Sets ANSWER_HEADERS on the answer once it is made (after the handler, the error responder or the not-found answer). */
export const answerHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(ANSWER_HEADERS)) c.res.headers.set(name, value);
};
