import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { OperationSpec } from '../core/http/operation.js';
import { describePolicy, errorsOf, policyTable } from '../core/http/policy-text.js';
import { accountChecks, callerGoneChecked, goneReadFresh, namedGoneChecked, ownerCheck, selfChecked } from '../core/http/policy-rules.js';
import type { TokenKind } from '../core/platform/tokens.js';
import { routeTable } from '../functions/routes/index.js';

/**
 * Authorization is declared per operation in the route table: this walks every route of every group and fails
 * when one has no usable policy, when the sentences rendered from a policy (the reference, the table of
 * docs/security.md) say something the authorization layer does not do for the token kinds the policy admits,
 * and when docs/security.md does not list what the table declares.
 */
const ops = routeTable.flatMap((group) => Object.values(group.ops).map((op) => [`${group.group} ${op.name}`, op] as const));

/** The top-level fields a request part's schema accepts. */
function fieldsOf(schema: OperationSpec['query']): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

describe('every operation declares its policy', () => {
  it.each(ops)('%s', (_name, op) => {
    if (op.auth === 'open') return;
    expect(op.auth.tokens.length).toBeGreaterThan(0);
    expect(op.auth.owns.length, 'an ownership rule (own, self, project, game, goods, record or any)').toBeGreaterThan(0);
    if (op.auth.role === 'admin') expect(op.auth.owns.some((rule) => rule.rule === 'any')).toBe(true);
    for (const rule of op.auth.owns) {
      if (!('field' in rule)) continue;
      const [part, name] = rule.field.split('.') as ['body' | 'query' | 'params', string];
      const schema = op[part];
      expect(schema, `${rule.field}: the operation has no ${part}`).toBeTypeOf('object');
      expect(fieldsOf(schema as OperationSpec['query']), `${rule.field} names no field of the ${part}`).toContain(name);
    }
    // Who may call it is known: a game or goods rule holds a merchant or server token to its own merchant's; a
    // player token it holds to nothing but existence, so a player token may take it only with a `self` rule
    // binding the call to that player (rank_around: a player's own rank in any game).
    if (op.auth.owns.some((rule) => rule.rule === 'game' || rule.rule === 'goods')) {
      const players = op.auth.tokens.filter((kind) => kind !== 'merchant' && kind !== 'server');
      if (players.length > 0) expect(op.auth.owns.some((rule) => rule.rule === 'self')).toBe(true);
    }
  });

  it('docs/security.md lists every operation with the policy the route table declares (npm run policy-table)', () => {
    const doc = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- policy-table -->') + '<!-- policy-table -->'.length, doc.indexOf('<!-- /policy-table -->')).trim();
    expect(table).toBe(policyTable(routeTable));
  });

  it('docs/security.md holds the table `npm run policy-table` prints now', () => {
    const printed = execFileSync(process.execPath, ['--import', 'tsx', 'tools/admin/policy-table.ts'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    });
    const doc = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');
    expect(doc).toContain(`<!-- policy-table -->\n${printed.trim()}\n<!-- /policy-table -->`);
  });
});

const KINDS: readonly TokenKind[] = ['merchant', 'server', 'platform', 'game', 'hero', 'store'];
const ACCOUNT_STATE = /revoked|suspen|seconds? old|read fresh/;

describe('every policy sentence says what the authorization layer does for the kinds the policy admits', () => {
  it.each(ops.filter(([, op]) => op.auth !== 'open'))('%s', (_name, op) => {
    const auth = op.auth as Exclude<OperationSpec['auth'], 'open'>;
    const whole = describePolicy(auth, op.method);
    const admitted = (kind: TokenKind) => auth.tokens.includes(kind);

    // Deleted players: the sentence says whom the layer refuses (a player token of one, 401; a token that may name
    // any user naming one in a self field, 404) and how fresh its knowledge is, exactly where the layer checks.
    const deletion = whole.match(/Deleted players: .*?\)\.(?= |$)/)?.[0];
    const ownGone = auth.tokens.some((kind) => callerGoneChecked(kind, auth));
    const namedFields = auth.owns.flatMap((rule) => (rule.rule === 'self' && auth.tokens.some(namedGoneChecked) ? [rule.field] : []));
    expect(deletion !== undefined, 'a sentence on deleted players').toBe(ownGone || namedFields.length > 0);
    if (deletion) {
      expect(deletion.includes('(401)'), 'a player token of a deleted player').toBe(ownGone);
      for (const field of namedFields)
        expect(deletion).toMatch(new RegExp(`naming (one|a player who deleted their account) in \`${field}\`( is refused)? \\(404\\)`));
      expect(deletion.match(/\(404\)/g)?.length ?? 0).toBe(namedFields.length);
      expect(deletion.includes('at once (read fresh on every call)'), 'fresh on writes and value').toBe(goneReadFresh(op.method, auth));
      expect(deletion.includes('within 60 seconds'), 'remembered on reads').toBe(!goneReadFresh(op.method, auth));
    }
    const errors = errorsOf(op);
    expect(errors[401]?.includes('deleted their account') ?? false, '401 of a deleted player').toBe(ownGone);
    for (const field of namedFields) expect(errors[404]).toContain(`${field.split('.')[1]} names a player who deleted their account`);
    const text = deletion ? whole.replace(deletion, '') : whole;

    // A token kind is named (`kind`, or "kind token") only when the policy admits it, or refuses it on purpose
    // (with its reason, and a 403 among the errors).
    for (const kind of KINDS) {
      const refusedWhy = auth.refused?.[kind];
      if (refusedWhy !== undefined) {
        expect(whole).toContain(`A \`${kind}\` token is refused (403): ${refusedWhy}.`);
        expect(errorsOf(op)[403]).toContain(`a ${kind} token: ${refusedWhy}`);
        continue;
      }
      const named = whole.includes(`\`${kind}\``) || new RegExp(`\\b${kind} token`).test(whole);
      if (named) expect(admitted(kind), `names ${kind} tokens`).toBe(true);
    }
    for (const kind of auth.tokens) if (!auth.store) expect(text).toContain(`\`${kind}\``);

    // The account's state (revocations, a suspension) is mentioned only where the layer reads it for an admitted
    // kind; a refusal for suspension only where it applies it; and the 403 of the reference likewise.
    const checks = auth.tokens.map((kind) => accountChecks(auth, kind)).filter((check) => check !== undefined);
    if (!admitted('merchant') && !admitted('server')) expect(checks, 'player tokens carry no account state').toEqual([]);
    if (checks.length === 0) expect(text).not.toMatch(ACCOUNT_STATE);
    else expect(text).toContain('a revoked token is refused (401)');
    const suspends = checks.some((check) => check.suspension);
    expect(text.includes('of a suspended merchant (403)'), 'refused while suspended').toBe(suspends);
    expect(Object.values(errorsOf(op)).some((cause) => cause.includes('the merchant is suspended'))).toBe(suspends);
    if (checks.length > 0) expect(text.includes('at most 1 second old'), 'a second old on value-moving calls').toBe(auth.movesValue === true);
    expect(text.includes('Moves value.')).toBe(auth.movesValue === true);
    if (auth.role === 'admin') expect(suspends, "admin operations are the platform's").toBe(false);

    // A store rule: a session-only operation never takes (nor mentions) an access token.
    if (auth.store?.sessionOnly) {
      expect(text).not.toMatch(/access token/);
      expect(JSON.stringify(errorsOf(op))).not.toMatch(/access token/);
      expect(text).toMatch(/store session/);
    }
    if (auth.store?.client) expect(text).toMatch(/client_credentials/);
    if (auth.store && !auth.store.session) expect(text).not.toMatch(/store session \(login\), or/);

    // Ownership: the sentence of a project, game or goods rule names exactly the checks the layer runs per kind.
    for (const rule of auth.owns) {
      if (rule.rule === 'project' || rule.rule === 'game' || rule.rule === 'goods') {
        const kinds = auth.tokens.map((kind) => ownerCheck(rule.rule as 'project', kind));
        expect(text.includes(`of the caller's merchant`), `${rule.field}: of the caller's merchant`).toBe(kinds.includes('account'));
        expect(text.includes(`of the merchant of the token's game`), `${rule.field}: of the game's merchant`).toBe(kinds.includes('game'));
        expect(text.includes('of any merchant'), `${rule.field}: of any merchant`).toBe(kinds.includes('exists'));
      }
      if (rule.rule === 'self') {
        expect(text.includes('must be the signed-in player'), `${rule.field}: bound to the player`).toBe(auth.tokens.some(selfChecked));
        expect(text.includes('may name any user'), `${rule.field}: any user`).toBe(auth.tokens.some((kind) => !selfChecked(kind)));
      }
    }
  });
});
