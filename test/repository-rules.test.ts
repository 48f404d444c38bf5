import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository speaks for itself (README, "Layout"): no comment, test title or doc cites a page kept outside
 * it. A rule the code relies on is stated in docs/ in the project's own words, and comments point there. This
 * test reads every tracked text file, this one included, and names each `file:line` that cites a design page, the
 * document of the interface kept beside the repository, or an issue by its number. The citations this file tests
 * its patterns on are written with placeholders (`sample`), so it cites nothing itself.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What a citation of a page outside the repository looks like; each with why it is one. */
const citationPatterns: { name: string; pattern: RegExp }[] = [
  // The product's design pages. Case-sensitive: docs/api.md is the project's own page.
  { name: 'a design page by its file name', pattern: /\b(?:API|ARCHITECTURE)\.md\b/ },
  // The folder beside the repository that holds the document of the interface and the design pages.
  { name: 'a path into the folder beside the repository', pattern: /(?:^|[^\w-])shared\/(?:seed|design)\b/ },
  { name: "the interface's document named so", pattern: /\bthe interface\s+document\b/i },
  // An issue, issues, a PR or pull request followed by its number (with or without #), and an issue's numbered
  // points ("hole" and a number).
  { name: 'an issue or pull request by its number', pattern: /\b(?:issues?|PRs?|pull requests?|holes?)\s+#?\d+/i },
  // A bare # and number used as a reference: in brackets, after "see", "in", "fixed in" and the like, with 's, or
  // opening a line. Not table keys (`PAYER#12`, `W#2026-11-16`), PKCS#8, URL fragments, HTML entities or CSS colours.
  {
    name: 'an issue by #number',
    pattern: /\(#\d+\)|\b(?:see|in|from|per|by|fix|fixe[sd]|close[sd]?|resolve[sd]?|refs?)\s+#\d+\b|(?<![\w&#/])#\d+'s\b|^\s*(?:\/\/|\*|-)\s*#\d+\b/i,
  },
];

/** Each citation in `text`, as `line: what it cites`. */
function citationsIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      citationPatterns.filter(({ pattern }) => pattern.test(line)).map(({ name }) => `${index + 1}: ${name}: ${line.trim().slice(0, 160)}`),
    );
}

/** The repository's tracked files; without git (an unpacked archive), every file but what .gitignore names. */
function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    const skipped = new Set(['.git', 'node_modules', '.data', '.sst', 'coverage', 'test-results', 'out']);
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir)).flatMap((name) => {
        const path = dir ? `${dir}/${name}` : name;
        if (skipped.has(name)) return [];
        return statSync(join(root, path)).isDirectory() ? walk(path) : [path];
      });
    return walk('');
  }
}

/** Text files only: a file with a NUL byte is binary. */
function readText(path: string): string | undefined {
  const full = join(root, path);
  if (!existsSync(full) || !statSync(full).isFile()) return undefined;
  const bytes = readFileSync(full);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

/**
 * What a sample's word placeholders stand for (a number is `{n<digits>}`, see `sample`): the pages and folder
 * outside the repository (a made-up file name among them), and the words that make a number an issue's, so that
 * the samples, read as they are written, cite nothing.
 */
const PARTS: Record<string, string> = {
  ...Object.fromEntries(['API', 'ARCHITECTURE'].map((page) => [page, `${page}.md`])),
  ...Object.fromEntries(['issue', 'issues', 'Issue', 'PR', 'hole'].map((word) => [word, word])),
  interface: ['interface', 'document'].join(' '),
  shared: '../shared',
  file: 'contract.txt',
};

/**
 * A sample line with its placeholders filled in: `{API}` and the like from PARTS, `{n12}` a number (the `n` keeps
 * every digit of the sample away from the words before it, so the line as written cites nothing to any reader).
 */
const sample = (line: string) => line.replace(/\{(\w+)\}/g, (_, part: string) => (/^n\d+$/.test(part) ? part.slice(1) : PARTS[part]!));

describe('citation patterns', () => {
  const cited = (line: string) => citationsIn(line).length > 0;

  it.each(
    [
      'see {issue} {n12}',
      ' * Settlement ({issue} {n5} item {n3}): a finished season',
      'The attacks of {issues} {n3} and {n4} through the HTTP API',
      '// {Issue} {n10} items {n3}, {n7} and {n8} through the HTTP API',
      "describe('strict integer parameters ({issue} {n10} item {n7})', () => {",
      'fixed by {issue} #{n12}',
      'as {PR} {n7} did',
      "describe('token revocation without a key change ({hole} {n4})', () => {",
      'found in #{n12}, and',
      'the same gap (#{n12})',
      ' * #{n14}: the pet mini-game',
      'minus_tickets ({API} flow {n5})',
      '({ARCHITECTURE} "Contention")',
      'The {interface} fixes the envelope',
      'written down from {shared}/seed/{file}',
      'as `{shared}/design/{API}` says',
    ].map(sample),
  )('flags %j', (line) => {
    expect(cited(line)).toBe(true);
  });

  it.each([
    'docs/api.md, "The compatibility contract"',
    '(docs/api.md, "Bases, envelopes, errors")',
    'pk `PAYER#12`, sk `ORDER#3`',
    "The season's key in the table: type and first day, e.g. `W#2026-11-16`, `M#2026-11-01`.",
    "`SCORE#<game>#W#2026-11-23` partition (20 players' items)",
    'PKCS#8 DER of an Ed25519 private key',
    'https://example.com/guide#12 and /page#3',
    'it&#39;s',
    'color: #333; border: 1px solid #000000;',
    "const { token } = await deps.tokens.issue('hero', uid);",
    'ctx.issues.push({ code: "custom" }); Only the first issue is reported.',
    'the issuer of the request; issued 3 tokens',
    'The seed is printed: `FC_SEED=<seed> FC_RUNS=<runs>` repeats a run, seed 121526260.',
    'demo data from tools/local/seed.ts (SEED_ADMIN_EMAIL)',
    '# 1. Stage the next key: published in JWKS, not signing yet.',
    'the compatibility contract fixes its 401 body',
  ])('passes %j', (line) => {
    expect(citationsIn(line)).toEqual([]);
  });
});

describe('the repository speaks for itself', () => {
  it("no tracked text file cites a design page, the interface's document or an issue number", () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => {
      const text = readText(path);
      return text === undefined ? [] : citationsIn(text).map((citation) => `${path}:${citation}`);
    });
    expect(found, `state the rule in docs/ and point there instead:\n${found.join('\n')}`).toEqual([]);
  });
});
