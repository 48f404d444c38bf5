import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of core/ (docs/architecture.md): the rules of .dependency-cruiser.cjs hold over core/, functions/
 * and infra/, and the diagram in docs/architecture.md is the one the code draws now. `npm run check:layers`
 * (run by .ci/run) checks the same; here a violation also fails `npm test`.
 */
const root = join(import.meta.dirname, '..');
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });

describe('layers', () => {
  it('no import breaks a rule of .dependency-cruiser.cjs', () => {
    const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
    const report = run([bin, 'core', 'functions', 'infra', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
    expect(report).toContain('no dependency violations found');
  });

  it('docs/architecture.md holds the diagram `npm run layers-diagram` draws now', () => {
    expect(() => run(['--import', 'tsx', 'functions/admin/layers-diagram.ts', '--check'])).not.toThrow();
  });
});
