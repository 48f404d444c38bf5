import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Keys are built by named builders (docs/data-model.md "Item kinds and a player's data"): a domain's key module
 * (`keys.ts`, `order-keys.ts`, …) or a builder named at the top of the module that owns the access pattern, never
 * spelled inline where an item is read or written. This test reads every .ts file under core/ and names each
 * `file:line` that spells a key (`PREFIX#${…}`) anywhere but in a key module or a one-line builder definition.
 */
const core = join(import.meta.dirname, '..', 'core');

/** Files whose whole purpose is to build keys: anything in them is a builder. */
const KEY_MODULE = /(^|\/)([a-z-]*keys|items)\.ts$/;
/** A key spelled in a template: an upper-case prefix, `#`, then a value. */
const SPELLED_KEY = /`[A-Z][A-Z0-9_]*#\$\{/;
/** A builder's definition on one line: `const fooKey = (…) => …`, exported or not. */
const BUILDER = /^\s*(export\s+)?const\s+\w+\s*=\s*(\([^)]*\)|\w+)\s*=>/;

/** Each inline key in a module's text, as `line: the line`. */
function inlineKeys(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (SPELLED_KEY.test(line) && !BUILDER.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

/** Sample source text, written with `§` for `$` so that it is not read as a template here. */
const source = (text: string) => text.replaceAll('§', '$');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('key builders', () => {
  it('finds a key spelled inline, and passes a builder or a comment', () => {
    expect(inlineKeys(source("      Key: { pk: `COUNTER#§{kind}`, sk: 'COUNTER' },"))).toHaveLength(1);
    expect(inlineKeys(source("  ExpressionAttributeValues: { ':pk': `USER#§{uid}` },"))).toHaveLength(1);
    expect(inlineKeys(source("export const counterKey = (kind: string) => ({ pk: `COUNTER#§{kind}`, sk: 'COUNTER' });"))).toEqual([]);
    expect(inlineKeys(source('const tokensPk = (accountId: string) => `SERVERTOKENS#§{accountId}`;'))).toEqual([]);
    expect(inlineKeys(source(' * - "order by id": pk `VORDER#§{id}`'))).toEqual([]);
  });

  it('core spells no key outside its builders', () => {
    const found = files(core)
      .filter((path) => !KEY_MODULE.test(path))
      .flatMap((path) => inlineKeys(readFileSync(path, 'utf8')).map((hit) => `${path.slice(core.length - 4)}:${hit}`));
    expect(found).toEqual([]);
  });
});
