import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of core/ (docs/architecture.md): the rules of .dependency-cruiser.cjs hold over core/, functions/,
 * infra/ and tools/, and the diagram in docs/architecture.md is the one the code draws now: `npm run check:layers`
 * (tools/admin/layers.ts, run by .ci/run), here so that a violation also fails `npm test`.
 */
const root = join(import.meta.dirname, '..');

describe('layers', () => {
  it('no import breaks a rule of .dependency-cruiser.cjs, and docs/architecture.md holds the diagram the code draws now', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/admin/layers.ts'], { cwd: root, encoding: 'utf8' });
    // On a failure the comparison shows what dependency-cruiser and the diagram check printed.
    expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toMatchObject({ status: 0 });
  });
});
