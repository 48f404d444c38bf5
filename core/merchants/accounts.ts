import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import type { DomainError } from '../platform/errors.js';
import { merchantError } from './errors.js';
import { decoyHash, hashPassword, verifyPassword } from '../platform/passwords.js';
import { requestSource, sourceKey } from '../platform/request-source.js';
import { AGAIN, retrying } from '../platform/retry.js';
import type { TransactItem } from '../platform/transactions.js';
import { accountKey, accountWindowKey, pairKey, sourceWindowKey } from './keys.js';

/**
 * Merchant console accounts (email + password). Access pattern "account by email": pk `ACCOUNT#<email>`,
 * sk `ACCOUNT`. The token's subject is the account id, which keys the account's merchant.
 */
export type Role = 'merchant' | 'admin';

/** "account by email" (accountKey): the account as stored. */
export const AccountItem = z.object({
  accountId: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  role: z.enum(['merchant', 'admin']),
  createdAt: z.string(),
});
type AccountItem = z.infer<typeof AccountItem>;
const accountItem = (item: Record<string, unknown> | undefined) => item && AccountItem.parse(item);

export async function createAccount(
  deps: PlatformDeps,
  input: { email: string; password: string; role: Role },
): Promise<{ accountId: string; email: string; role: Role }> {
  if (input.password.length < 8) throw merchantError('account.password_too_short', 'password: must be at least 8 characters');
  const item: AccountItem = {
    accountId: randomUUID(),
    email: input.email.toLowerCase(),
    passwordHash: await hashPassword(input.password),
    role: input.role,
    createdAt: deps.now().toISOString(),
  };
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...accountKey(item.email), type: 'account', ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionalFailure(error)) throw merchantError('account.email_taken', `an account for ${item.email} exists already`);
    throw error;
  }
  return { accountId: item.accountId, email: item.email, role: item.role };
}

export async function findAccount(deps: PlatformDeps, email: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: accountKey(email) }));
  return accountItem(out.Item);
}

/**
 * Checks the password and issues a merchant token. Unknown emails and wrong passwords get the same answer
 * and the same work (a decoy hash is verified), so the response does not reveal which accounts exist; the
 * throttle below keys on the email whether or not an account has it, so its 429s reveal nothing either.
 *
 * Login throttling (docs/security.md "Login throttling"): there is no lock that anyone who knows an email can
 * set. Failures are counted per (email, source) pair, the source being the client's address (requestSource,
 * core/platform/request-source.ts): after `loginThrottle.freeFailures` the pair waits an exponentially growing delay
 * (429 with Retry-After) before its next try, so a guesser at one address gets a few tries an hour while the
 * owner at another address signs in untouched. Two looser limits catch many addresses: per email and per
 * source, over a window; a source that signed in to the account recently is exempt from both. A success resets
 * its pair. A refused request (429) writes nothing; the failure counters are the one documented exception to
 * "a refused request writes nothing": a 401 records the failure.
 */
export async function login(deps: PlatformDeps, email: string, password: string) {
  const normalizedEmail = email.toLowerCase();
  const source = sourceKey(requestSource());
  const now = deps.now();
  const state = await readThrottle(deps, normalizedEmail, source, now);
  refuseWhileThrottled(state, now);
  await reserveAttempt(deps, normalizedEmail, source, state, now);

  const account = state.account;
  const ok = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account || !ok) {
    await recordFailure(deps, normalizedEmail, source, now);
    throw merchantError('account.credentials_wrong', 'email or password is wrong');
  }
  await recordSuccess(deps, normalizedEmail, source, now);
  return signedIn(deps, account);
}

/** A fresh console session of the account: what merchant_login answers (and a password change, with its new session). */
export async function signedIn(deps: PlatformDeps, account: Pick<AccountItem, 'accountId' | 'role' | 'email'>) {
  const { token, expiresAt } = await deps.tokens.issue('merchant', account.accountId, {
    role: account.role,
    email: account.email,
  });
  return { accessToken: token, expiresAt, account_id: account.accountId, role: account.role };
}

/**
 * A password change's check of the current password, held to the login throttle like a sign-in (docs/security.md
 * "Login throttling"): a session alone must not buy unthrottled guesses at its account's password. The pair is
 * the account's email and the request's source; a 429 writes nothing, a wrong password counts as a failed
 * sign-in (403 `account.password_wrong`, the session itself being good), a right one resets the pair. Answers the
 * account as read, whose hash the change is conditional on.
 */
export async function checkCurrentPassword(deps: PlatformDeps, accountId: string, email: string, password: string): Promise<AccountItem> {
  const normalizedEmail = email.toLowerCase();
  const source = sourceKey(requestSource());
  const now = deps.now();
  const state = await readThrottle(deps, normalizedEmail, source, now);
  refuseWhileThrottled(state, now);
  await reserveAttempt(deps, normalizedEmail, source, state, now);
  const account = state.account?.accountId === accountId ? state.account : undefined;
  const ok = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account || !ok) {
    await recordFailure(deps, normalizedEmail, source, now);
    throw merchantError('account.password_wrong', 'current_password: wrong password');
  }
  await recordSuccess(deps, normalizedEmail, source, now);
  return account;
}

/**
 * The write of a password change, for the caller's transaction: the account's new hash, on condition that the
 * stored hash is still the one checked (a concurrent change wins once).
 */
export async function passwordChange(deps: PlatformDeps, account: AccountItem, password: string): Promise<TransactItem> {
  return {
    Update: {
      TableName: deps.table,
      Key: accountKey(account.email),
      UpdateExpression: 'SET passwordHash = :hash, passwordChangedAt = :now',
      ConditionExpression: 'accountId = :id AND passwordHash = :seen',
      ExpressionAttributeValues: {
        ':hash': await hashPassword(password),
        ':now': deps.now().toISOString(),
        ':id': account.accountId,
        ':seen': account.passwordHash,
      },
    },
  };
}

/** The throttle's numbers (docs/security.md "Login throttling" explains each). */
export const loginThrottle = {
  /** Failures of one (email, source) pair before back-off starts: typos cost nothing. */
  freeFailures: 3,
  /** The wait after the first failure past the free ones; it doubles with each further failure ... */
  baseDelaySeconds: 2,
  /** ... up to this. */
  maxDelaySeconds: 15 * 60,
  /** A pair's failures are forgotten this long after its last failure. */
  pairMemorySeconds: 24 * 3600,
  /** Failures of an email from all sources together, per window, before sources not known to it are refused. */
  accountMaxFailures: 50,
  /** Failures from one source over all emails, per window, before that source is refused (but for its known accounts). */
  sourceMaxFailures: 100,
  windowSeconds: 3600,
  /** A source that signed in to an account within this is known to it: the looser limits do not apply to it. */
  knownSourceSeconds: 30 * 24 * 3600,
} as const;

/** The wait after a pair's `failures`-th failure: none for the free ones, then base × 2^k up to the maximum. */
export function backoffSeconds(failures: number): number {
  const over = failures - loginThrottle.freeFailures;
  if (over <= 0) return 0;
  return Math.min(loginThrottle.baseDelaySeconds * 2 ** Math.min(over - 1, 30), loginThrottle.maxDelaySeconds);
}

const THROTTLE_TYPE = 'login-throttle';

/** "an email's failures from a source" (pairKey): what the login throttle remembers of the pair. */
export const PairItem = z.object({
  failures: z.optional(z.number()),
  lastFailureAt: z.optional(z.string()),
  blockedUntil: z.optional(z.string()),
  lastSuccessAt: z.optional(z.string()),
});
type PairItem = z.infer<typeof PairItem>;

interface ThrottleState {
  account?: AccountItem;
  pair?: PairItem;
  /** The pair's failures still remembered (0 once pairMemorySeconds have passed since the last one). */
  failures: number;
  accountFailures: number;
  sourceFailures: number;
  window: { start: Date; end: Date };
  known: boolean;
}

function windowOf(now: Date) {
  const size = loginThrottle.windowSeconds * 1000;
  const start = new Date(Math.floor(now.getTime() / size) * size);
  return { start, end: new Date(start.getTime() + size) };
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** The account and the three counters in one request (core/platform/batch.ts: read completely, or 503). */
async function readThrottle(deps: PlatformDeps, email: string, source: string, now: Date): Promise<ThrottleState> {
  const window = windowOf(now);
  const windowName = window.start.toISOString();
  const [storedAccount, storedPair, accountWindow, sourceWindow] = await readItems(deps, [
    accountKey(email),
    pairKey(email, source),
    accountWindowKey(email, windowName),
    sourceWindowKey(source, windowName),
  ]);
  const account = accountItem(storedAccount);
  const pair = storedPair && PairItem.parse(storedPair);
  const remembered = pair?.lastFailureAt !== undefined && now.getTime() - Date.parse(pair.lastFailureAt) < loginThrottle.pairMemorySeconds * 1000;
  return {
    account,
    pair,
    failures: remembered ? Number(pair?.failures ?? 0) : 0,
    accountFailures: Number(accountWindow?.failures ?? 0),
    sourceFailures: Number(sourceWindow?.failures ?? 0),
    window,
    known: pair?.lastSuccessAt !== undefined && now.getTime() - Date.parse(pair.lastSuccessAt) < loginThrottle.knownSourceSeconds * 1000,
  };
}

function tooMany(message: string, until: Date, now: Date): DomainError {
  const seconds = secondsUntil(until, now);
  return merchantError('account.sign_in_throttled', `${message}; try again in ${seconds} s`, { retryAfterSeconds: seconds });
}

/** 429 while the pair waits out its back-off, or (for a source not known to the account) past a looser limit. */
function refuseWhileThrottled(state: ThrottleState, now: Date) {
  const blockedUntil = state.pair?.blockedUntil ? new Date(state.pair.blockedUntil) : undefined;
  if (blockedUntil && blockedUntil > now) throw tooMany('too many failed sign-ins to this account from this address', blockedUntil, now);
  if (state.known) return;
  if (state.accountFailures >= loginThrottle.accountMaxFailures) throw tooMany('too many failed sign-ins to this account', state.window.end, now);
  if (state.sourceFailures >= loginThrottle.sourceMaxFailures) throw tooMany('too many failed sign-ins from this address', state.window.end, now);
}

/**
 * Counts the attempt against its pair before the password is checked, conditional on the count read: of
 * concurrent attempts from one pair, each is counted in turn and those past the free ones find the back-off
 * set, so firing guesses in parallel buys no extra tries. A success takes the count back (recordSuccess).
 */
async function reserveAttempt(deps: PlatformDeps, email: string, source: string, state: ThrottleState, now: Date) {
  let current = state;
  await retrying(
    async (attempt) => {
      if (attempt > 1) {
        // Another attempt of the pair was counted meanwhile: read again; it may have set the back-off.
        current = await readThrottle(deps, email, source, now);
        refuseWhileThrottled(current, now);
      }
      const failures = current.failures + 1;
      const wait = backoffSeconds(failures);
      const seen = current.pair?.failures;
      try {
        await deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: pairKey(email, source),
            UpdateExpression: `SET #type = :type, failures = :failures, lastFailureAt = :now, #expires = :expires${wait > 0 ? ', blockedUntil = :until' : ''}${wait > 0 ? '' : ' REMOVE blockedUntil'}`,
            ConditionExpression: seen === undefined ? 'attribute_not_exists(failures)' : 'failures = :seen',
            ExpressionAttributeNames: { '#type': 'type', '#expires': 'expiresAt' },
            ExpressionAttributeValues: {
              ':type': THROTTLE_TYPE,
              ':failures': failures,
              ':now': now.toISOString(),
              ':expires': throttleExpiry(now, current.pair?.lastSuccessAt),
              ...(wait > 0 ? { ':until': new Date(now.getTime() + wait * 1000).toISOString() } : {}),
              ...(seen === undefined ? {} : { ':seen': seen }),
            },
          }),
        );
        return;
      } catch (error) {
        if (!isConditionalFailure(error)) throw error;
        return AGAIN;
      }
    },
    {
      pause: false,
      giveUp: () => {
        throw merchantError('account.sign_in_contended', 'too many concurrent sign-ins to this account from this address; try again in 1 s', {
          retryAfterSeconds: 1,
        });
      },
    },
  );
}

/** When the pair's item may go (TTL): once its failures are forgotten and its success no longer makes the source known. */
function throttleExpiry(now: Date, lastSuccessAt: string | undefined): number {
  const forgotten = epochSeconds(now) + loginThrottle.pairMemorySeconds;
  const unknownAgain = lastSuccessAt ? epochSeconds(new Date(lastSuccessAt)) + loginThrottle.knownSourceSeconds : 0;
  return Math.max(forgotten, unknownAgain);
}

/** A failed password: the looser per-email and per-source counters of the window (the pair was counted already). */
async function recordFailure(deps: PlatformDeps, email: string, source: string, now: Date) {
  const window = windowOf(now);
  const windowName = window.start.toISOString();
  const count = (Key: Record<string, string>) =>
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key,
        UpdateExpression: 'SET #type = :type, #expires = :expires ADD failures :one',
        ExpressionAttributeNames: { '#type': 'type', '#expires': 'expiresAt' },
        ExpressionAttributeValues: { ':type': THROTTLE_TYPE, ':expires': epochSeconds(window.end) + loginThrottle.windowSeconds, ':one': 1 },
      }),
    );
  await Promise.all([count(accountWindowKey(email, windowName)), count(sourceWindowKey(source, windowName))]);
}

/** A success resets its pair and makes the source known to the account. */
async function recordSuccess(deps: PlatformDeps, email: string, source: string, now: Date) {
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: pairKey(email, source),
      UpdateExpression: 'SET #type = :type, lastSuccessAt = :now, #expires = :expires REMOVE failures, lastFailureAt, blockedUntil',
      ExpressionAttributeNames: { '#type': 'type', '#expires': 'expiresAt' },
      ExpressionAttributeValues: { ':type': THROTTLE_TYPE, ':now': now.toISOString(), ':expires': epochSeconds(now) + loginThrottle.knownSourceSeconds },
    }),
  );
}

/** Creates the account unless one exists for the email (the local server's SEED_ADMIN_* and the admin CLI). */
export async function ensureAccount(deps: PlatformDeps, input: { email: string; password: string; role: Role }) {
  const existing = await findAccount(deps, input.email);
  if (existing) return { accountId: existing.accountId, email: existing.email, role: existing.role, created: false };
  return { ...(await createAccount(deps, input)), created: true };
}
