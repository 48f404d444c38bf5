import { describe, expect, it } from 'vitest';
import { LEAKS, leaksOf, readInspections, removeEndedRunInspections, responseInspectionDir } from './support/response-inspection.js';
import { readServerLogs, removeEndedRunLogs, serverLogDir } from './support/server-logs.js';
import { scanSuiteTables } from './support/suite-tables.js';

/**
 * Secrets, stack traces and internal paths over the whole suite. Secrets in the service's logs (docs/security.md
 * "Secrets in logs and responses"). This file runs in a group of its own after every other test file
 * (vitest.config.ts) and reads the service's log output of the run (test/support/server-logs.ts): no token (a JWT of
 * any kind: platform, store session, access, id token), Authorization header, PEM block, private JWK member, Sui
 * private key, test password, or base64 run as long as a signature or a secret.
 */

const SECRETS: [string, RegExp][] = [
  ['a JWT', /eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]*/],
  ['a PEM block', /-----BEGIN [A-Z ]+-----/],
  ['a private JWK member', /"d"\s*:\s*"/],
  ['a Sui private key', /suiprivkey1/],
  ['a test password', /correct horse battery|hunter2/i],
  ['a base64 run as long as a signature, key or secret', /[A-Za-z0-9+/_-]{86,}={0,2}/],
  ['an Authorization header', /Bearer\s+[\w-]{10,}/],
];

describe("the run's logs", () => {
  it('the service logged no token, password, signature, secret or private key in the whole run', () => {
    removeEndedRunLogs();
    const dir = serverLogDir();
    expect(dir).toBeDefined();
    const lines = readServerLogs(dir!);
    const processes = new Set(lines.map((l) => l.file));
    const found = lines.flatMap(({ file, line }) =>
      SECRETS.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${what} in ${file}: ${line.slice(0, 200)}`),
    );
    console.log(`server logs: ${lines.length} lines from ${processes.size} test processes scanned for ${SECRETS.length} kinds of secret`);
    expect(found).toEqual([]);
    // Not vacuous: the suite's fault and error tests make the service log (table failures, unexpected errors).
    expect(lines.length, 'no log line captured: run this file with the whole suite (npm test)').toBeGreaterThan(10);
  });

  it('the response inspection recognises what it looks for (a real stack, a path, key material) and passes an envelope', () => {
    expect(leaksOf(new Error('boom').stack!)).toEqual(expect.arrayContaining(['a stack trace', 'an internal path']));
    expect(leaksOf(JSON.stringify({ private_key: 'suiprivkey1qq' }))).toEqual(['a private_key that is not ""', 'a Sui private key']);
    expect(leaksOf(JSON.stringify({ statusCode: 500, message: 'internal error' }))).toEqual([]);
    expect(leaksOf(JSON.stringify({ address: '0xabc', private_key: '' }))).toEqual([]);
  });

  it('no response of the run carried a stack trace, an internal path or a private key', () => {
    removeEndedRunInspections();
    const dir = responseInspectionDir();
    expect(dir).toBeDefined();
    const processes = readInspections(dir!);
    const responses = processes.reduce((sum, p) => sum + p.responses, 0);
    const megabytes = processes.reduce((sum, p) => sum + p.bytes, 0) / 2 ** 20;
    console.log(
      `responses: ${responses} text bodies (${megabytes.toFixed(1)} MB) from ${processes.length} test processes inspected for ${LEAKS.length} kinds of leak`,
    );
    expect(processes.flatMap((p) => p.findings.map((finding) => `${p.file}: ${finding}`))).toEqual([]);
    // Not vacuous: every test file's requests are inspected (test/support/capture-setup.ts).
    expect(responses, 'no response inspected: run this file with the whole suite (npm test)').toBeGreaterThan(1000);
  });
});

describe("the run's tables", () => {
  it('no table of the run stores a private key: every stored private_key is "", no key material in any attribute', async () => {
    const found: string[] = [];
    let accounts = 0;
    const scanned = await scanSuiteTables((table, item) => {
      if ('private_key' in item) {
        accounts++;
        if (item.private_key !== '') found.push(`${table} ${String(item.pk)} ${String(item.sk)}: private_key ${JSON.stringify(item.private_key).slice(0, 40)}`);
      }
      const text = JSON.stringify(item, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
      for (const [what, pattern] of KEY_MATERIAL) if (pattern.test(text)) found.push(`${what} in ${table} ${String(item.pk)} ${String(item.sk)}`);
    });
    expect(scanned, 'run this file with the whole suite (npm test)').toBeDefined();
    console.log(`tables: ${scanned!.items} items in ${scanned!.tables} tables scanned for private keys (${accounts} carry private_key)`);
    expect(found).toEqual([]);
    expect(scanned!.items).toBeGreaterThan(1000);
  }, 300_000);
});

/** Key material as it would be stored: a Sui private key, a PEM private key, a private JWK member. */
const KEY_MATERIAL = LEAKS.filter(([what]) => /Sui private key|PEM private key|private JWK/.test(what));
