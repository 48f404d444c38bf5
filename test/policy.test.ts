import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { OperationSpec } from '../core/http/operation.js';
import { policyTable } from '../core/http/policy-text.js';
import { routeTable } from '../functions/routes/index.js';

/**
 * Authorization is declared per operation in the route table: this walks every route of every group and fails
 * when one has no usable policy, and when docs/security.md does not list what the table declares.
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
    // Who may call it is known: a player rule needs a player token, a merchant rule a merchant or server token.
    if (op.auth.owns.some((rule) => rule.rule === 'game' || rule.rule === 'goods')) {
      expect(op.auth.tokens.every((kind) => kind === 'merchant' || kind === 'server')).toBe(true);
    }
  });

  it('docs/security.md lists every operation with the policy the route table declares (npm run policy-table)', () => {
    const doc = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- policy-table -->') + '<!-- policy-table -->'.length, doc.indexOf('<!-- /policy-table -->')).trim();
    expect(table).toBe(policyTable(routeTable));
  });
});
