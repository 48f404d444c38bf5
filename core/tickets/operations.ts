import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod/mini';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { assertOwner, projectKey, type StoredProject } from '../payments/projects.js';
import type { Deps } from '../platform/deps.js';
import { AppError, conflict, forbidden, notFound } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import type { MinusTicketsBody } from '../payments/models.js';
import { balanceKey, balanceOf, balancesOf, debitItems, findLedgerEntry } from './balances.js';
import { findProject } from '../payments/projects.js';

/**
 * Who may touch a user's tickets: the user (platform or game token of that user), or a game server of the
 * merchant that owns the project (server token). Other callers get 403.
 */
async function assertMayAct(deps: Deps, caller: TokenClaims, userId: string, projectName: string) {
  if (caller.kind === 'server') {
    const project = await findProject(deps, projectName);
    if (!project) throw notFound(`projectName: no project ${projectName}`);
    if (project.accountId !== caller.sub) throw forbidden(`projectName: project ${projectName} belongs to another merchant`);
    return;
  }
  if (caller.sub !== userId) throw forbidden('userId: not the signed-in user');
}

/** The user whose tickets a read is about: a player's own, or the `userId` a game server names. */
function subjectOf(caller: TokenClaims, userId: string | undefined): string {
  if (caller.kind !== 'server') {
    if (userId !== undefined && userId !== caller.sub) throw forbidden('userId: not the signed-in user');
    return caller.sub;
  }
  if (userId === undefined) throw new AppError(400, 'query.userId: required with a server token');
  return userId;
}

export async function ticketBalance(deps: Deps, caller: TokenClaims, query: { projectName: string; level: number; userId?: string }) {
  const userId = subjectOf(caller, query.userId);
  const target = { uid: userId, projectName: query.projectName, level: query.level };
  const answer = (balance: number) => ({ userId, projectName: query.projectName, level: query.level, balance });
  if (caller.kind !== 'server') return answer(await balanceOf(deps, target));
  // A game server: the project (for its owner) and the balance in one read.
  const keys = [projectKey(query.projectName), balanceKey(target)];
  const read = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: keys, ConsistentRead: true } } }));
  const items = read.Responses?.[deps.table] ?? [];
  assertOwner(items.find((item) => item.pk === keys[0]!.pk) as StoredProject | undefined, caller, query.projectName, 'projectName');
  return answer(Number(items.find((item) => item.pk === keys[1]!.pk && item.sk === keys[1]!.sk)?.balance ?? 0));
}

/** remainBalance: the sum of what is left over the user's levels (of one project if named). */
export async function remainingBalance(deps: Deps, caller: TokenClaims, query: { projectName?: string; userId?: string }) {
  const userId = subjectOf(caller, query.userId);
  if (caller.kind === 'server') {
    if (!query.projectName) throw new AppError(400, 'query.projectName: required with a server token');
    await assertMayAct(deps, caller, userId, query.projectName);
  }
  const balances = await balancesOf(deps, userId, query.projectName);
  return { userId, total: balances.reduce((sum, b) => sum + b.balance, 0), balances };
}

/**
 * minus_tickets (API.md flow 5): takes `amount` tickets in one transaction whose conditions keep the
 * balance from going below zero (409 when short) and, through the ledger entry keyed by the
 * Idempotency-Key, make a retried request take once and answer what the first answered. A server token's
 * merchant must own the project; the ownership is checked inside the same transaction.
 */
export async function minusTickets(deps: Deps, caller: TokenClaims, input: z.infer<typeof MinusTicketsBody>, idempotencyKey?: string) {
  if (caller.kind !== 'server' && caller.sub !== input.userId) throw forbidden('userId: not the signed-in user');
  if (idempotencyKey !== undefined && !/^[\w.:-]{1,128}$/.test(idempotencyKey)) {
    throw new AppError(400, 'Idempotency-Key: expected 1-128 letters, digits, _ . : or -');
  }
  const ref = `minus#${idempotencyKey ?? randomUUID()}`;
  const request = fingerprint(input);
  const target = { uid: input.userId, projectName: input.projectName, level: input.level };
  const ownership = caller.kind === 'server'
    ? [{ ConditionCheck: { TableName: deps.table, Key: projectKey(input.projectName), ConditionExpression: 'accountId = :me', ExpressionAttributeValues: { ':me': caller.sub } } }]
    : [];
  const failed = await transactOrFailedConditions(deps, [
    ...debitItems(deps, target, input.amount, ref, { request, response: ref }),
    ...ownership,
  ]);
  if (failed.length === 0) return ref;
  if (failed.includes(2)) {
    await assertMayAct(deps, caller, input.userId, input.projectName);
  }
  if (failed.includes(1)) {
    // The key was used before: the same request answers what it answered; another request is refused.
    const entry = await findLedgerEntry(deps, input.userId, ref);
    if (entry?.request === request) return entry.response as string;
    throw conflict('Idempotency-Key: used already for another request');
  }
  throw conflict(`amount: the balance of ${input.projectName} level ${input.level} is less than ${input.amount}`);
}

const fingerprint = (input: object) => createHash('sha256').update(JSON.stringify(input)).digest('base64url');
