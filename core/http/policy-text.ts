import { BATCH_READ_BUSY } from '../platform/batch.js';
import { TABLE_UNAVAILABLE } from '../platform/table-failures.js';
import { jsonBodyErrors } from './json-body.js';
import { formBodyErrors } from './form-body.js';
import type { AuthRule, Method, OperationSpec, Ownership, TokenRule } from './operation.js';
import { accountChecks, callerGoneChecked, goneReadFresh, namedGoneChecked, ownerCheck, selfChecked, type OwnerCheck } from './policy-rules.js';
import { STATE_TTL_MS } from '../access/principals.js';
import { VALUE_STATE_MS } from '../platform/process-memory.js';
import type { OwnedKind } from '../access/owners.js';
import type { TokenKind } from '../platform/tokens.js';
import type { StoreTokenRule } from '../partner-store/bearer.js';

/**
 * A policy in words, for the reference (the OpenAPI description of every operation) and the table of
 * docs/security.md. Every sentence is made from the policy's data, its method and the checks the authorization
 * layer runs for each admitted token kind (policy-rules.ts `accountChecks`, `ownerCheck`, `selfChecked`,
 * `callerGoneChecked`, `namedGoneChecked`, `goneReadFresh`; a store rule's kinds, core/partner-store/bearer.ts), so
 * what readers are told is what the layer enforces: a token kind is named only when the policy admits it, a
 * suspension only when the layer applies one (test/policy.test.ts walks every route).
 */
export function describePolicy(auth: AuthRule, method: Method): string {
  if (auth === 'open') return 'Open: no token needed.';
  const who = auth.store
    ? describeStoreToken(auth.store)
    : `Requires a Bearer ${kindList(auth.tokens)} token${auth.role === 'admin' ? ' of an admin account' : ''}.`;
  const rules = auth.owns.map((rule) => describeOwnership(rule, auth.tokens));
  const refused = Object.entries(auth.refused ?? {}).map(([kind, why]) => `A \`${kind}\` token is refused (403): ${why}.`);
  return [who, ...refused, ...rules, ...describeDeletions(auth, method), ...describeAccountState(auth)].join(' ');
}

/** `a`, `a` or `b`, `a`, `b` or `c`: token kinds as the sentences name them. */
function kindList(kinds: readonly TokenKind[]): string {
  const named = kinds.map((kind) => `\`${kind}\``);
  return named.length < 2 ? named.join('') : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

/** What a store rule takes (core/partner-store/bearer.ts verifyStoreBearer): a session only, a user's access token, or a client's own. */
function describeStoreToken(store: StoreTokenRule): string {
  const region = `the ${store.region} store region`;
  const deleted = "The store user is read on every call: a user's tokens are refused from the start of their store account's deletion (401).";
  if (store.sessionOnly) return `Requires a Bearer store session (login) of ${region}: the user acts in person, never through a partner app. ${deleted}`;
  const scope = store.scope ? ` with the \`${store.scope}\` scope` : '';
  if (store.client) return `Requires a Bearer token of ${region}: a partner backend's own (client_credentials) access token${scope}.`;
  return `Requires a Bearer token of ${region}: ${store.session ? 'the store session (login), or ' : ''}a partner app's access token for the user${scope}. ${deleted}`;
}

/**
 * Who the layer refuses for a deleted player (policy.ts): a player token of one (401), and a token that may name
 * any user naming one in a `self` field (404); and how soon a deletion takes effect (`goneReadFresh`).
 */
function describeDeletions(auth: TokenRule, method: Method): string[] {
  const own = auth.tokens.filter((kind) => callerGoneChecked(kind, auth));
  const naming = auth.tokens.filter(namedGoneChecked);
  const fields = naming.length > 0 ? auth.owns.flatMap((rule) => (rule.rule === 'self' ? [rule.field] : [])) : [];
  const refused = [
    ...(own.length > 0 ? [`a ${kindList(own)} token of a player who deleted their account is refused (401)`] : []),
    ...fields.map((field) =>
      own.length > 0
        ? `a ${kindList(naming)} token naming one in \`${field}\` (404)`
        : `a ${kindList(naming)} token naming a player who deleted their account in \`${field}\` is refused (404)`,
    ),
  ];
  if (auth.whileDeleted) return ["Deleted players: the player's own token still reaches it, so the deletion's retries do."];
  if (refused.length === 0) return [];
  const when = goneReadFresh(method, auth)
    ? 'at once (read fresh on every call)'
    : `within ${STATE_TTL_MS / 1000} seconds (a process may use what it read up to ${STATE_TTL_MS / 1000} seconds before)`;
  return [`Deleted players: ${refused.join(', and ')}; a deletion takes effect ${when}.`];
}

/**
 * What the layer reads of the account behind the admitted console and server tokens (policy.ts
 * `accountChecks`): nothing for player tokens, which carry no account state.
 */
function describeAccountState(auth: TokenRule): string[] {
  const moves = auth.movesValue ? ['Moves value.'] : [];
  const checked = auth.tokens.flatMap((kind) => {
    const checks = accountChecks(auth, kind);
    return checks ? [{ kind, ...checks }] : [];
  });
  if (checked.length === 0) return moves;
  const when = auth.movesValue
    ? `at most ${VALUE_STATE_MS / 1000} second old (a suspension or revocation answers once that second has passed, so value stops from its answer)`
    : `at most ${STATE_TTL_MS / 1000} seconds old`;
  const suspended = checked.filter((check) => check.suspension).map((check) => check.kind);
  const refused = suspended.length > 0 ? `, and a ${kindList(suspended)} token of a suspended merchant (403)` : '';
  const exempt = checked.filter((check) => !check.suspension).map((check) => check.kind);
  const why =
    auth.role === 'admin'
      ? `The suspension of a merchant the admin account owns does not refuse it: the operation is the platform's, not the merchant's.`
      : `A suspended merchant's ${kindList(exempt)} token may still call it.`;
  return [
    ...moves,
    `The account behind a ${kindList(checked.map((check) => check.kind))} token is checked on every call, with its state ${when}: a revoked token is refused (401)${refused}.`,
    ...(exempt.length > 0 ? [why] : []),
  ];
}

/** An ownership rule in words, for the token kinds the policy admits (policy.ts `ownerCheck`, `selfChecked`). */
export function describeOwnership(rule: Ownership, tokens: readonly TokenKind[]): string {
  switch (rule.rule) {
    case 'own':
      return "Acts on the caller's own records only.";
    case 'self': {
      const players = tokens.filter(selfChecked);
      const others = tokens.filter((kind) => !selfChecked(kind));
      const free = `a ${kindList(others)} token may name any user (its other rules bound what it touches)`;
      if (others.length === 0) return `\`${rule.field}\` must be the signed-in player.`;
      if (players.length === 0) return `\`${rule.field}\` names a user: ${free}.`;
      return `\`${rule.field}\` must be the signed-in player for a ${kindList(players)} token; ${free}.`;
    }
    case 'project':
    case 'game':
    case 'goods': {
      const item = rule.rule === 'goods' ? 'existing goods' : `an existing ${rule.rule}`;
      const byCheck = new Map<OwnerCheck, TokenKind[]>();
      for (const kind of tokens) {
        const check = ownerCheck(rule.rule, kind);
        byCheck.set(check, [...(byCheck.get(check) ?? []), kind]);
      }
      const whose: Record<OwnerCheck, string> = {
        account: "of the caller's merchant",
        game: "of the merchant of the token's game",
        exists: 'of any merchant',
      };
      if (byCheck.size === 1) return `\`${rule.field}\` must name ${item} ${whose[[...byCheck.keys()][0]!]}.`;
      const parts = [...byCheck].map(([check, kinds]) => `for a ${kindList(kinds)} token, ${whose[check]}`);
      return `\`${rule.field}\` must name ${item}: ${parts.join('; ')}.`;
    }
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
 * player token of a deleted player, a revoked token, a suspended merchant, a named record that does not exist or
 * is another's, a named player who deleted their account; the 503 of the batch read of a console or server
 * account's state, core/platform/batch.ts). The reference documents exactly these.
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
  if (op.auth !== 'open' && op.auth.store)
    for (const [status, cause] of Object.entries(storeTokenErrors(op.auth.store))) add(Number(status) as ErrorStatus, cause);
  if (op.auth !== 'open') {
    const auth = op.auth;
    for (const [kind, why] of Object.entries(auth.refused ?? {})) add(403, `a ${kind} token: ${why}`);
    const own = auth.tokens.filter((kind) => callerGoneChecked(kind, auth));
    if (own.length > 0) add(401, `a ${own.join(' or ')} token of a player who deleted their account`);
    // Deletions are read from the table (a GetItem), whatever else the operation touches.
    const namesPlayers = auth.owns.some((rule) => rule.rule === 'self') && auth.tokens.some(namedGoneChecked);
    if (own.length > 0 || namesPlayers) add(503, TABLE_UNAVAILABLE);
    const checked = auth.tokens.filter((kind) => accountChecks(auth, kind) !== undefined);
    if (checked.length > 0) {
      add(401, `a ${checked.join(' or ')} token revoked by its account`);
      if (checked.some((kind) => accountChecks(auth, kind)!.suspension)) add(403, 'the merchant is suspended');
      add(503, BATCH_READ_BUSY);
    }
    for (const rule of auth.owns) {
      if (rule.rule === 'self' && auth.tokens.some(selfChecked)) add(403, `${rule.field.split('.')[1]} is not the signed-in player`);
      if (rule.rule === 'self' && auth.tokens.some(namedGoneChecked)) add(404, `${rule.field.split('.')[1]} names a player who deleted their account`);
      if (rule.rule === 'project' || rule.rule === 'game' || rule.rule === 'goods') {
        const field = rule.field.split('.')[1];
        const checks = new Set(auth.tokens.map((kind) => ownerCheck(rule.rule as OwnedKind, kind)));
        add(404, `${field} names no ${rule.rule}`);
        const refused = [
          checks.has('account') && `a ${rule.rule} of another merchant`,
          checks.has('game') && `${checks.has('account') ? '' : `a ${rule.rule} `}not of the game token's merchant`,
        ].filter(Boolean);
        if (refused.length > 0) add(403, `${field} names ${refused.join(', or ')}`);
      }
    }
  }
  return Object.fromEntries([...causes].sort(([a], [b]) => a - b).map(([status, list]) => [status, list.join('; ')]));
}

/** What the partner store's bearer layer (core/partner-store/bearer.ts) answers for an operation's store rule. */
function storeTokenErrors(rule: StoreTokenRule): Partial<Record<ErrorStatus, string>> {
  const deleted = 'or one of a user who deleted their store account';
  if (rule.sessionOnly) return { 401: `no store session of this region, ${deleted}` };
  if (rule.client)
    return {
      401: 'no token, or not an access token of this region',
      403: `not a client's own token${rule.scope ? `, or without the ${rule.scope} scope` : ''}`,
    };
  return {
    401: `no token, or not ${rule.session ? 'a store session or ' : ''}an access token of this region, or one of a revoked family, ${deleted}`,
    403: `${rule.scope ? `an access token without the ${rule.scope} scope, or ` : ''}a client's own token`,
    // An access token's user and family are read in one BatchGetItem.
    503: BATCH_READ_BUSY,
  };
}

/** The table of docs/security.md: every operation of every group with its policy (test/policy.test.ts keeps them equal). */
export function policyTable(groups: readonly { group: string; ops: Record<string, OperationSpec> }[]): string {
  const rows = groups.flatMap(({ group, ops }) =>
    Object.values(ops).map((op) => `| ${group} | ${op.name} | ${op.method} ${op.path} | ${describePolicy(op.auth, op.method).replaceAll('|', '\\|')} |`),
  );
  return ['| group | operation | method path | policy |', '|---|---|---|---|', ...rows].join('\n');
}
