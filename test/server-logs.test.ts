import { describe, expect, it } from 'vitest';
import { readServerLogs, removeEndedRunLogs, serverLogDir } from './support/server-logs.js';

/**
 * Secrets in the service's logs over the whole suite (issue 15, item 4; docs/security.md "Secrets in logs and
 * responses"). This file runs in a group of its own after every other test file (vitest.config.ts) and reads
 * the service's log output of the run (test/support/server-logs.ts): no token (a JWT of any kind: platform,
 * store session, access, id token), Authorization header, PEM block, private JWK member, Sui private key, test
 * password, or base64 run as long as a signature or a secret.
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
    const found = lines.flatMap(({ file, line }) => SECRETS.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${what} in ${file}: ${line.slice(0, 200)}`));
    console.log(`server logs: ${lines.length} lines from ${processes.size} test processes scanned for ${SECRETS.length} kinds of secret`);
    expect(found).toEqual([]);
    // Not vacuous: the suite's fault and error tests make the service log (table failures, unexpected errors).
    expect(lines.length, 'no log line captured: run this file with the whole suite (npm test)').toBeGreaterThan(10);
  });
});
