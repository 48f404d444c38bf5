import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allErrorEntries, retryAfterCodes } from '../core/http/error-catalogue.js';
import { errorCodesTable, errorMeanings } from '../tools/admin/error-table.js';
import { statusOfKind } from '../core/http/error-statuses.js';
import { codesOf, layerCodesOf } from '../core/http/operation-codes.js';
import { errorsOf } from '../core/http/policy-text.js';
import { routeTable } from '../functions/routes/index.js';

/**
 * The error codes (docs/api.md, "Error codes"): each domain declares its codes in its catalogue and throws
 * through it; the HTTP layer alone knows statuses. These tests read the source, so a code thrown past the
 * catalogues, or a status named in a domain, fails naming file:line.
 */
const root = new URL('..', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every code once: a code declared twice shows as a difference in length. */
const allErrorCodes = [...new Set(allErrorEntries.map((entry) => entry.code))];

const sources = [...sourceFiles('core'), ...sourceFiles('functions'), ...sourceFiles('tools')].map((path) => ({
  path,
  lines: readFileSync(join(root, path), 'utf8').split('\n'),
}));

/** The code literals of error constructions: `xError('area.reason', …`, `oauthError('rfc', 'area.reason', …`, `challenged('area.reason'`, `super('area.reason'`. */
const THROWN = [/\b\w*(?:Error|challenged|super)\(\s*'([a-z_]+\.[a-z_]+)'/g, /\boauthError\(\s*'\w+',\s*'([a-z_]+\.[a-z_]+)'/g];

/** The folders of the domains (every folder of core/ but the platform, the shared models and the HTTP layer): the layer that throws kinds and codes, never statuses. */
const DOMAIN_FOLDERS = readdirSync(join(root, 'core'))
  .filter((name) => statSync(join(root, 'core', name)).isDirectory() && !['platform', 'shared', 'http'].includes(name))
  .map((name) => `core/${name}/`);

describe('error codes', () => {
  it('are `<area>.<reason>` in snake_case, each declared once with its meaning, of a kind the HTTP layer maps to a status', () => {
    const meanings = errorMeanings();
    for (const entry of allErrorEntries) {
      expect(entry.code, entry.code).toMatch(/^[a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*$/);
      expect(statusOfKind[entry.kind], entry.code).toBeGreaterThanOrEqual(400);
      expect(meanings.get(entry.code)?.length ?? 0, entry.code).toBeGreaterThan(10);
    }
    expect(allErrorCodes.length).toBe(allErrorEntries.length);
  });

  it('every code the source throws is in a catalogue, and every catalogued code is thrown somewhere', () => {
    const thrown = new Set<string>();
    // Read over whole files, so a construction the formatter wraps (the code on the line after the call) still counts.
    for (const { path, lines } of sources) {
      const text = lines.join('\n');
      for (const pattern of THROWN) {
        for (const match of text.matchAll(pattern)) {
          thrown.add(match[1]!);
          expect(allErrorCodes, `${path}:${text.slice(0, match.index).split('\n').length}`).toContain(match[1]);
        }
      }
    }
    expect(thrown.size).toBeGreaterThan(100);
    // Codes the HTTP layer answers without a constructor (core/http/app.ts, errors.ts) are named as literals there.
    const literal = (code: string) =>
      sources.some(({ path, lines }) =>
        !path.endsWith('/errors.ts') || path === 'core/http/errors.ts'
          ? lines.some((line) => line.includes(`'${code}'`) && !line.trimStart().startsWith(`'${code}':`))
          : false,
      );
    expect(allErrorCodes.filter((code) => !thrown.has(code) && !literal(code))).toEqual([]);
  });

  it('a code declared with Retry-After is made with retryAfterSeconds wherever it is thrown, and no other code is', () => {
    /** The text of the call that starts at `start` (up to its balancing parenthesis). */
    const callAt = (text: string, start: number) => {
      let depth = 0;
      for (let i = text.indexOf('(', start); i < text.length; i++) {
        if (text[i] === '(') depth++;
        if (text[i] === ')' && --depth === 0) return text.slice(start, i + 1);
      }
      return text.slice(start);
    };
    const wrong: string[] = [];
    let constructions = 0;
    for (const { path, lines } of sources) {
      const text = lines.join('\n');
      for (const pattern of THROWN) {
        for (const match of text.matchAll(pattern)) {
          const carries = callAt(text, match.index).includes('retryAfterSeconds');
          const declared = retryAfterCodes.has(match[1]!);
          if (declared) constructions++;
          if (carries !== declared)
            wrong.push(`${path}:${text.slice(0, match.index).split('\n').length} ${match[1]} ${declared ? 'without' : 'with'} retryAfterSeconds`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(retryAfterCodes.size).toBeGreaterThanOrEqual(3);
    expect(constructions).toBeGreaterThanOrEqual(retryAfterCodes.size);
  });

  it('no domain file names an HTTP status or a header in an error, or reaches for the HTTP layer', () => {
    const refused: string[] = [];
    for (const { path, lines } of sources.filter(({ path }) => DOMAIN_FOLDERS.some((folder) => path.startsWith(folder)))) {
      lines.forEach((line, index) => {
        const at = `${path}:${index + 1}: ${line.trim()}`;
        if (/\bthrow\b.*\(\s*[45]\d\d\s*[,)]/.test(line) || /\bnew \w+Error\(\s*[45]\d\d\b/.test(line)) refused.push(`status in a throw: ${at}`);
        if (/'(?:Retry-After|WWW-Authenticate)':/.test(line)) refused.push(`header built in the domain: ${at}`);
        if (/\b(?:AppError|badRequest|unauthorized|forbidden|notFound|conflict)\b\s*[,(}]/.test(line) && /import|throw|return/.test(line))
          refused.push(`status-bearing error: ${at}`);
        if (/from '(?:hono\/http-exception|\.\.\/http\/)/.test(line)) refused.push(`HTTP layer imported: ${at}`);
      });
    }
    expect(refused).toEqual([]);
  });

  it('docs/api.md lists every code with its kind, status and meaning (npm run error-codes)', () => {
    const doc = readFileSync(join(root, 'docs/api.md'), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- error-codes -->') + '<!-- error-codes -->'.length, doc.indexOf('<!-- /error-codes -->')).trim();
    expect(table).toBe(errorCodesTable());
    const printed = execFileSync(process.execPath, ['--import', 'tsx', 'tools/admin/error-codes.ts'], { cwd: root, encoding: 'utf8' });
    expect(printed.trim()).toBe(table);
  });
});

describe("each operation's codes (core/http/operation-codes.ts)", () => {
  const operations = routeTable.flatMap((group) => Object.values(group.ops));

  it('every status an operation documents has a code, and every code it can answer is of a status it documents', () => {
    const wrong = operations.flatMap((op) => {
      const documented = Object.keys(errorsOf(op)).map(Number);
      const codes = codesOf(op);
      return [
        ...documented.filter((status) => !codes.has(status)).map((status) => `${op.name}: ${status} is documented, but no code of it is declared`),
        ...[...codes]
          .filter(([status]) => !documented.includes(status))
          .map(([status, list]) => `${op.name}: ${list.join(', ')} answered with ${status}, which its errors do not list`),
      ];
    });
    expect(wrong).toEqual([]);
  });

  it('a route table declares a code once, and none the HTTP layer answers for the operation already', () => {
    const repeated = operations.flatMap((op) => {
      const declared = op.codes ?? [];
      const layer = new Set(layerCodesOf(op));
      return declared.filter((code, index) => layer.has(code) || declared.indexOf(code) !== index).map((code) => `${op.name}: ${code}`);
    });
    expect(repeated).toEqual([]);
  });
});
