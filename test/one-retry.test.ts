import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One retry loop in core/ (docs/architecture.md): whatever runs again after losing a race goes through
 * `retrying` (core/platform/retry.ts), so every retry is bounded, pauses the same way and gives up in one place.
 * This test reads every .ts file under core/ and names each `file:line` where a retry loop is written by hand:
 * the primitive's pause named elsewhere, a loop counting attempts, retries or rounds against a limit, or an
 * unbounded loop that is not one of the listed page readers.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PRIMITIVE = 'core/platform/retry.ts';

/** What a hand-written retry looks like on a line; each with why it is one. */
const retryPatterns: { name: string; pattern: RegExp }[] = [
  // The pause between tries belongs to the primitive; a pause of its own is a loop of its own.
  { name: "the primitive's pause named outside it", pattern: /\bretryPause\b/ },
  // A loop whose header counts tries: `for (let attempt = 1; ...)`, `while (retries < 3)`, `attempt <= WRITE_ATTEMPTS`.
  {
    name: 'a loop counting attempts',
    pattern: /\b(?:for|while)\s*\((?:.*[^\w])?(?:attempts?|retry|retries|tries|[A-Z_]*(?:ATTEMPTS|RETRIES|ROUNDS))\b/,
  },
];

/** A loop with no condition: it ends only by a return or a throw inside, as a hand-written retry does. */
const unbounded = /\bfor\s*\([^;()]*;\s*;|\bwhile\s*\(\s*true\s*\)/;

/** The unbounded loops that are no retry: each reads pages until the last, and how many the file holds. */
const PAGE_READERS: Record<string, { loops: number; why: string }> = {
  'core/chain/graphql.ts': { loops: 2, why: "a transaction's events and balance changes, a page at a time" },
  'core/chain/indexer.ts': { loops: 1, why: "an event type's pages, until caught up or a limit stops the pass" },
  'core/payments/console-orders.ts': { loops: 1, why: "reads on in the partitions behind a console page's last order (MAX_ROUNDS)" },
};

/** Each hand-written retry in `text`, as `line: what it is: the line`; `readers` unbounded loops are allowed. */
function retriesIn(text: string, readers = 0): string[] {
  const found: string[] = [];
  let loops = 0;
  text.split('\n').forEach((line, index) => {
    const at = `${index + 1}: `;
    for (const { name, pattern } of retryPatterns) if (pattern.test(line)) found.push(`${at}${name}: ${line.trim()}`);
    if (unbounded.test(line) && ++loops > readers) found.push(`${at}an unbounded loop (not a listed page reader): ${line.trim()}`);
  });
  return found;
}

/** Every .ts file under core/, as a path from the repository's root. */
function coreFiles(dir = 'core'): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return coreFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('one retry loop in core', () => {
  it('finds no retry loop written by hand outside the primitive', () => {
    const found = coreFiles()
      .filter((path) => path !== PRIMITIVE)
      .flatMap((path) => retriesIn(read(path), PAGE_READERS[path]?.loops).map((finding) => `${path}:${finding}`));
    expect(found, 'a retry goes through retrying() (core/platform/retry.ts); a page reader is listed in PAGE_READERS').toEqual([]);
  });

  it('lists page readers that are still there', () => {
    for (const [path, { loops }] of Object.entries(PAGE_READERS)) {
      expect(
        read(path)
          .split('\n')
          .filter((line) => unbounded.test(line)).length,
        path,
      ).toBe(loops);
    }
  });

  it('has the one loop in the primitive', () => {
    expect(read(PRIMITIVE).match(/\b(?:for|while)\s*\(/g)).toHaveLength(1);
  });

  // The patterns must catch what they are for: the loops core/ had before the primitive, written anew here.
  it('names each hand-written retry by its line', () => {
    const sample = [
      'async function write() {',
      '  for (let attempt = 1; ; attempt++) {',
      '    try {',
      '      return await send();',
      '    } catch (error) {',
      '      if (attempt === 5) throw error;',
      '    }',
      '    await retryPause(attempt);',
      '  }',
      '}',
      'for (let round = 1; round <= MAX_ROUNDS; round++) await eraseRound();',
      'while (true) { if (await tryOnce()) break; }',
      'do { pending = await again(pending); } while (retries++ < 3);',
    ].join('\n');
    expect(retriesIn(sample)).toEqual([
      '2: a loop counting attempts: for (let attempt = 1; ; attempt++) {',
      '2: an unbounded loop (not a listed page reader): for (let attempt = 1; ; attempt++) {',
      "8: the primitive's pause named outside it: await retryPause(attempt);",
      '11: a loop counting attempts: for (let round = 1; round <= MAX_ROUNDS; round++) await eraseRound();',
      '12: an unbounded loop (not a listed page reader): while (true) { if (await tryOnce()) break; }',
      '13: a loop counting attempts: do { pending = await again(pending); } while (retries++ < 3);',
    ]);
    // A page reader is allowed where it is listed, and only as many times.
    expect(retriesIn('for (;;) {\n  page = await next(page);\n}\nfor (;;) {}', 1)).toEqual(['4: an unbounded loop (not a listed page reader): for (;;) {}']);
  });

  it('leaves loops that are no retry alone', () => {
    const sample = [
      'do {',
      '  const out = await query(start);',
      '  start = out.LastEvaluatedKey;',
      '} while (start);',
      'for (const item of items) total += item.n;',
      'for (let start = 0; start < keys.length; start += 100) chunks.push(keys.slice(start, start + 100));',
      'while (low < high) mid = (low + high) >> 1;',
      'return retrying(async (attempt) => (attempt === 1 ? first : await again()), { attempts: WRITE_ATTEMPTS, giveUp });',
    ].join('\n');
    expect(retriesIn(sample)).toEqual([]);
  });
});
