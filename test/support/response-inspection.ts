import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeEndedRunFolders, runFolder } from './transaction-journal.js';

/**
 * What the service answers over a whole test run (docs/security.md "Secrets in logs and responses";
 * test/server-logs.test.ts reads it): every response whose body is text (Hono's json, text and html answers: each is
 * a `new Response(text, …)` made at the time of the answer) is inspected as it is made, in every test process, for a
 * stack trace, an internal path, and a private key (a `private_key` that is not `""`, a Sui private key, a PEM
 * private key, a private JWK member). Each process writes its count and findings to its file in a folder of the run
 * after each test file, like the server logs (test/support/server-logs.ts).
 *
 * Not inspected: bodies that are not text (streams, bytes: the files route) and the answers of a server started
 * with @hono/node-server in a test process (it installs its own lightweight Response for the answers it sends
 * over the socket); the same apps' answers through `app.request` are.
 */
const PREFIX = 'server-responses-';
const INSTALLED = Symbol.for('game-platform.response-inspection');

export const LEAKS: [string, RegExp][] = [
  ['a stack trace', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|\/|node:)[^\s)"]*:\d+:\d+/],
  ['an internal path', /(?:\/work\/|\/home\/|\/root\/|\/var\/task\/|node_modules\/|file:\/\/\/|\.(?:ts|mjs|js):\d+:\d+)/],
  ['a private_key that is not ""', /"private_key"\s*:\s*"[^"]/],
  ['a Sui private key', /suiprivkey1/],
  ['a PEM private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['a private JWK member', /"d"\s*:\s*"[\w-]{20,}"/],
];

export interface InspectionSummary {
  responses: number;
  bytes: number;
  findings: string[];
}

export const responseInspectionDir = () => runFolder(PREFIX);

/** The findings of one body: one line per kind of leak it carries. */
export function leaksOf(body: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(body)).map(([what]) => what);
}

/**
 * Makes the global Response inspect every text body it is made with (once per process); answers `save`, which
 * writes this process's summary to its file in `dir`.
 */
export function inspectResponses(dir: string): () => void {
  const global = globalThis as Record<symbol, unknown>;
  const summary = (global[INSTALLED] ??= install()) as InspectionSummary;
  mkdirSync(dir, { recursive: true });
  return () => writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(summary));
}

function install(): InspectionSummary {
  const summary: InspectionSummary = { responses: 0, bytes: 0, findings: [] };
  const Original = globalThis.Response;
  class Inspected extends Original {
    constructor(body?: ConstructorParameters<typeof Response>[0], init?: ResponseInit) {
      super(body, init);
      if (typeof body !== 'string') return;
      summary.responses++;
      summary.bytes += body.length;
      for (const what of leaksOf(body)) if (summary.findings.length < 50) summary.findings.push(`${what} in a ${this.status}: ${body.slice(0, 300)}`);
    }
    // Responses made by fetch and by the platform are the original class: they stay Responses.
    static override [Symbol.hasInstance](value: unknown) {
      return value instanceof Original;
    }
  }
  globalThis.Response = Inspected;
  return summary;
}

/** Every process's summary in `dir`. */
export function readInspections(dir: string): (InspectionSummary & { file: string })[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as InspectionSummary) }));
}

/** Removes the folders of runs whose main process has ended. */
export const removeEndedRunInspections = () => removeEndedRunFolders(PREFIX);
