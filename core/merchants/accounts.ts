import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import { AppError, conflict, unauthorized } from '../platform/errors.js';
import { decoyHash, hashPassword, verifyPassword } from '../platform/passwords.js';

/**
 * Merchant console accounts (email + password). Access pattern "account by email": pk `ACCOUNT#<email>`,
 * sk `ACCOUNT`. The token's subject is the account id, which keys the account's merchant.
 */
export type Role = 'merchant' | 'admin';

interface AccountItem {
  accountId: string;
  email: string;
  passwordHash: string;
  role: Role;
  failedLogins?: number;
  lockedUntil?: string;
  createdAt: string;
}

/** Lockout policy: this many consecutive failures lock the account for LOCK_MINUTES. */
export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;

const accountKey = (email: string) => ({ pk: `ACCOUNT#${email.toLowerCase()}`, sk: 'ACCOUNT' });

export async function createAccount(
  deps: Deps,
  input: { email: string; password: string; role: Role },
): Promise<{ accountId: string; email: string; role: Role }> {
  if (input.password.length < 8) throw new AppError(400, 'password: must be at least 8 characters');
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
    if ((error as Error).name === 'ConditionalCheckFailedException') throw conflict(`an account for ${item.email} exists already`);
    throw error;
  }
  return { accountId: item.accountId, email: item.email, role: item.role };
}

export async function findAccount(deps: Deps, email: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: accountKey(email) }));
  return out.Item as AccountItem | undefined;
}

/**
 * Checks the password and issues a merchant token. Unknown emails and wrong passwords get the same answer
 * and the same work (a decoy hash is verified), so the response does not reveal which accounts exist.
 */
export async function login(deps: Deps, email: string, password: string) {
  const account = await findAccount(deps, email);
  const now = deps.now();
  if (account?.lockedUntil && account.lockedUntil > now.toISOString()) {
    const seconds = Math.ceil((Date.parse(account.lockedUntil) - now.getTime()) / 1000);
    throw new AppError(429, `account is locked after repeated failed logins; try again in ${seconds} s`, {
      'Retry-After': String(seconds),
    });
  }
  const ok = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account || !ok) {
    if (account) await recordFailure(deps, account.email);
    throw unauthorized('email or password is wrong');
  }
  if (account.failedLogins) {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: accountKey(account.email),
        UpdateExpression: 'REMOVE failedLogins, lockedUntil',
      }),
    );
  }
  const { token, expiresAt } = await deps.tokens.issue('merchant', account.accountId, {
    role: account.role,
    email: account.email,
  });
  return { accessToken: token, expiresAt, account_id: account.accountId, role: account.role };
}

/** Counts a failure atomically; the one that reaches the limit sets the lock and starts the count again. */
async function recordFailure(deps: Deps, email: string) {
  const out = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: accountKey(email),
      UpdateExpression: 'ADD failedLogins :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (Number(out.Attributes?.failedLogins) >= MAX_FAILED_LOGINS) {
    const lockedUntil = new Date(deps.now().getTime() + LOCK_MINUTES * 60_000).toISOString();
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: accountKey(email),
        UpdateExpression: 'SET lockedUntil = :until REMOVE failedLogins',
        ExpressionAttributeValues: { ':until': lockedUntil },
      }),
    );
  }
}

/** Creates the account unless one exists for the email (the local server's SEED_ADMIN_* and the admin CLI). */
export async function ensureAccount(deps: Deps, input: { email: string; password: string; role: Role }) {
  const existing = await findAccount(deps, input.email);
  if (existing) return { accountId: existing.accountId, email: existing.email, role: existing.role, created: false };
  return { ...(await createAccount(deps, input)), created: true };
}
