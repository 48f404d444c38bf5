import { BATCH_READ_BUSY } from '../platform/batch.js';
import { TABLE_UNAVAILABLE } from '../platform/table-failures.js';
import { jsonBodyErrors } from './json-body.js';
import { formBodyErrors } from './form-body.js';
import type { AuthRule, OperationSpec, Ownership } from './operation.js';
import type { StoreTokenRule } from '../store/bearer.js';

/**
 * A policy in words, for the reference (the OpenAPI description of every operation) and the table of
 * docs/security.md, so what readers are told is what the authorization layer enforces.
 */
export function describePolicy(auth: AuthRule): string {
  if (auth === 'open') return 'Open: no token needed.';
  const kinds = auth.tokens.map((kind) => `\`${kind}\``).join(' or ');
  const store = auth.store;
  const who = store
    ? store.client
      ? `Requires a Bearer token of the ${store.region} store region: a partner backend's own (client_credentials) access token${store.scope ? ` with the \`${store.scope}\` scope` : ''}.`
      : `Requires a Bearer token of the ${store.region} store region: ${store.session ? 'the store session (login), or ' : ''}a partner app's access token for the user${store.scope ? ` with the \`${store.scope}\` scope` : ''}.`
    : `Requires a Bearer ${kinds} token${auth.role === 'admin' ? ' of an admin account' : ''}.`;
  const rules = auth.owns.map(describeOwnership).join(' ');
  const extra = [
    auth.movesValue && "Moves value: the merchant's suspension and token revocations are read on every call.",
    auth.whileSuspended && "A suspended merchant's console may still call it.",
  ].filter(Boolean);
  return [who, rules, ...extra].join(' ');
}

export function describeOwnership(rule: Ownership): string {
  switch (rule.rule) {
    case 'own':
      return "Acts on the caller's own records only.";
    case 'self':
      return `\`${rule.field}\` must be the signed-in player (a server names any user of its projects).`;
    case 'project':
      return `\`${rule.field}\` must name an existing project of the caller's merchant (a game token: of its game's merchant).`;
    case 'game':
      return `\`${rule.field}\` must name an existing game of the caller's merchant.`;
    case 'goods':
      return `\`${rule.field}\` must name existing goods of the caller's merchant.`;
    case 'record':
      return `\`${rule.field}\` must name a ${rule.record} whose owner (${rule.owner}) is the caller; others answer 404.`;
    case 'any':
      return `Any record: ${rule.why}.`;
  }
}

type ErrorStatus = keyof OperationSpec['errors'];

/**
 * Every error an operation can answer: what its route table entry lists, plus what the platform adds: a JSON
 * body's 413 and 415 (core/http/json-body.ts), and what its policy makes the authorization layer answer (a
 * revoked token, a suspended merchant, a named record that does not exist or is another's; the 503 of the batch
 * read of a console or server account's state, core/platform/batch.ts). The reference documents exactly these.
 */
export function errorsOf(op: OperationSpec): OperationSpec['errors'] {
  const causes = new Map<ErrorStatus, string[]>();
  const add = (status: ErrorStatus, cause: string) => {
    const list = causes.get(status) ?? [];
    if (!list.includes(cause)) list.push(cause);
    causes.set(status, list);
  };
  for (const [status, cause] of Object.entries(op.errors)) add(Number(status) as ErrorStatus, cause);
  if (op.body !== undefined && op.body !== 'multipart') {
    add(413, jsonBodyErrors[413]);
    add(415, op.bodyType === 'form' ? formBodyErrors[415] : jsonBodyErrors[415]);
    if (op.bodyType === 'form') add(400, 'a parameter is given more than once');
  }
  // Input the operation's schemas refuse is a 400 naming the field, on every operation that takes input.
  if ((op.params || op.query || op.body) && !causes.has(400)) add(400, 'the input is invalid: the message names the field');
  if (op.query) add(400, 'a query parameter is given more than once');
  if (!op.tableFree) add(503, TABLE_UNAVAILABLE);
  if (op.auth !== 'open' && op.auth.store) for (const [status, cause] of Object.entries(storeTokenErrors(op.auth.store))) add(Number(status) as ErrorStatus, cause);
  if (op.auth !== 'open') {
    const merchantKinds = op.auth.tokens.filter((kind) => kind === 'merchant' || kind === 'server');
    if (merchantKinds.length > 0) {
      add(401, `a ${merchantKinds.join(' or ')} token revoked by its account`);
      if (!op.auth.whileSuspended) add(403, 'the merchant is suspended');
      add(503, BATCH_READ_BUSY);
    }
    for (const rule of op.auth.owns) {
      if (rule.rule === 'self') add(403, `${rule.field.split('.')[1]} is not the signed-in player`);
      if (rule.rule === 'project' || rule.rule === 'game' || rule.rule === 'goods') {
        const field = rule.field.split('.')[1];
        add(404, `${field} names no ${rule.rule}`);
        add(403, `${field} names a ${rule.rule} of another merchant${rule.rule === 'project' && op.auth.tokens.includes('game') ? ", or not of the game token's merchant" : ''}`);
      }
    }
  }
  return Object.fromEntries([...causes].sort(([a], [b]) => a - b).map(([status, list]) => [status, list.join('; ')]));
}

/** What the partner store's bearer layer (core/store/bearer.ts) answers for an operation's store rule. */
function storeTokenErrors(rule: StoreTokenRule): Partial<Record<ErrorStatus, string>> {
  if (rule.sessionOnly) return { 401: 'no store session of this region' };
  if (rule.client) return { 401: 'no token, or not an access token of this region', 403: `not a client's own token${rule.scope ? `, or without the ${rule.scope} scope` : ''}` };
  return {
    401: `no token, or not ${rule.session ? 'a store session or ' : ''}an access token of this region, or one of a revoked family`,
    403: `${rule.scope ? `an access token without the ${rule.scope} scope, or ` : ''}a client's own token`,
  };
}

/** The table of docs/security.md: every operation of every group with its policy (test/policy.test.ts keeps them equal). */
export function policyTable(groups: readonly { group: string; ops: Record<string, OperationSpec> }[]): string {
  const rows = groups.flatMap(({ group, ops }) =>
    Object.values(ops).map((op) => `| ${group} | ${op.name} | ${op.method} ${op.path} | ${describePolicy(op.auth).replaceAll('|', '\\|')} |`),
  );
  return ['| group | operation | method path | policy |', '|---|---|---|---|', ...rows].join('\n');
}
