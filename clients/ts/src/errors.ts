import type { operations as heroOperations } from './generated/hero.js';
import type { operations as mainOperations } from './generated/main.js';

/** The body of every JSON answer an operation gives with a status of 400 or more. */
type ErrorBodies<Operations> = {
  [Id in keyof Operations]: Operations[Id] extends { responses: infer Responses }
    ? {
        [Status in keyof Responses]: Status extends number
          ? `${Status}` extends `${4 | 5}${string}`
            ? Responses[Status] extends { content: { 'application/json': infer Body } }
              ? Body
              : never
            : never
          : never;
      }[keyof Responses]
    : never;
}[keyof Operations];

/** The `error` code of an error body (the token endpoint's RFC 6749 bodies carry theirs there too). */
export type CodeOf<Body> = Body extends { error: infer Code extends string } ? Code : never;

/** Every error code the platform answers, from both documents: `<area>.<reason>`, or an OAuth error at the store's token endpoints. */
export type ErrorCode = CodeOf<ErrorBodies<mainOperations>> | CodeOf<ErrorBodies<heroOperations>>;

/**
 * An error answer as a value: its HTTP status, the code to switch on (typed as the union of the codes the
 * operation can answer, as its document lists them), the message, the envelope as received and the
 * `Retry-After` seconds when the answer carried one. The envelope's shape follows the path (`{code, message,
 * data}` under /merchant, `{statusCode, message}` elsewhere, `{error, error_description}` at the store's token
 * endpoints); `code` and `message` read it whatever its shape.
 */
export class ApiError<Code extends string = ErrorCode> extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly body: unknown,
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** Reads an error answer's envelope (any of the platform's shapes) and the Retry-After beside it. */
  static of<Code extends string>(response: Response, body: unknown): ApiError<Code> {
    const fields = (body ?? {}) as { error?: unknown; message?: unknown; error_description?: unknown };
    const code = typeof fields.error === 'string' ? fields.error : `http.${response.status}`;
    const message =
      typeof fields.message === 'string' ? fields.message : typeof fields.error_description === 'string' ? fields.error_description : response.statusText;
    return new ApiError(response.status, code as Code, message, body, retryAfterOf(response));
  }
}

/** The `error` code an answer's JSON body carries, read from a copy (the caller still reads the body). */
export async function errorCodeOf(response: Response): Promise<string | undefined> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return typeof body?.error === 'string' ? body.error : undefined;
}

/** The `Retry-After` of an answer in seconds (the platform sends delta-seconds). */
export function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** What openapi-fetch resolves a call to. */
interface Answer<Data, Body> {
  data?: Data;
  error?: Body;
  response: Response;
}

/** A call's outcome as a value: its data, or the error with the operation's own code union. */
export type Result<Data, Body> = { ok: true; data: Data; response: Response } | { ok: false; error: ApiError<CodeOf<Body>>; response: Response };

/** A call's answer as a Result, its data the whole body: `if (!r.ok) switch (r.error.code) { … }` with only the operation's codes. */
export async function settle<Data, Body>(call: Promise<Answer<Data, Body>>): Promise<Result<Data, Body>> {
  const { data, error, response } = await call;
  if (response.ok) return { ok: true, data: data as Data, response };
  return { ok: false, error: ApiError.of<CodeOf<Body>>(response, error), response };
}

/** The envelope of the account, wallet and store paths' lists and wrapped records. */
interface AccountEnvelope {
  data: unknown;
  statusCode: number;
  message: string;
  totalPage: number;
}

/** The envelope of every answer under /merchant. */
interface MerchantEnvelope {
  code: number;
  message: string;
  data: unknown;
}

/** Whether Body is the envelope: its fields, of their types, and no other field. */
type Is<Body, Envelope> = Body extends Envelope ? ([Exclude<keyof Body, keyof Envelope>] extends [never] ? true : false) : false;

/**
 * What `unwrap` answers for an operation whose success body is Body: the envelope's `data` when Body is one of
 * the platform's envelopes (`{data, statusCode, message, totalPage}`, `{code, message, data}`), else Body itself
 * (a bare record, a token pair, an OAuth answer, a page).
 */
export type Payload<Body> = Body extends unknown
  ? true extends Is<Body, AccountEnvelope> | Is<Body, MerchantEnvelope>
    ? Body extends { data: infer Data }
      ? Data
      : never
    : Body
  : never;

const sameFields = (body: object, fields: string[]) => Object.keys(body).sort().join() === fields.join();

/** The rule of Payload, on the body received: the same fields, of the same types. */
function payloadOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { data, statusCode, message, totalPage, code } = body as Record<string, unknown>;
  if (typeof message !== 'string') return body;
  const account = typeof statusCode === 'number' && typeof totalPage === 'number' && sameFields(body, ['data', 'message', 'statusCode', 'totalPage']);
  const merchant = typeof code === 'number' && sameFields(body, ['code', 'data', 'message']);
  return account || merchant ? data : body;
}

/**
 * A call's payload, or its ApiError thrown (typed with the operation's codes). The payload is the same for every
 * operation: the envelope's `data` when the operation answers one of the platform's envelopes, the body itself
 * otherwise (Payload). `settle` answers the whole body, for the envelope's `totalPage` or `message`.
 */
export async function unwrap<Data, Body>(call: Promise<Answer<Data, Body>>): Promise<Payload<Data>> {
  const result = await settle(call);
  if (!result.ok) throw result.error;
  return payloadOf(result.data) as Payload<Data>;
}
