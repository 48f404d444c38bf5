import { afterAll } from 'vitest';
import { contractAnswersDir, recordContractAnswers } from './contract-answers.js';
import { errorAnswersDir, recordErrorAnswers } from './error-answers.js';
import { inspectResponses, responseInspectionDir } from './response-inspection.js';
import { captureServerLogs, serverLogDir } from './server-logs.js';

// Every test process keeps the service's log output of the run (test/support/server-logs.ts) and inspects
// every response it makes (test/support/response-inspection.ts), for test/server-logs.test.ts, and notes every
// error answer (test/support/error-answers.ts), for test/error-answers.test.ts, and checks every answer against the
// OpenAPI document (test/support/contract-answers.ts), for test/contract-answers.test.ts.
const logs = serverLogDir();
if (logs) captureServerLogs(logs);
const responses = responseInspectionDir();
if (responses) afterAll(inspectResponses(responses));
const answers = errorAnswersDir();
if (answers) afterAll(recordErrorAnswers(answers));
const contract = contractAnswersDir();
if (contract) afterAll(recordContractAnswers(contract));

// A file finds the global Request and Response a fresh process gives it (the inspected Response above), though a
// file before it in the same process started a server with @hono/node-server, which puts its own classes in their
// place (login-throttle.test.ts does): a Request made with the node's class is then no `instanceof Request`, and
// Hono's `app.request` takes it for a path.
const FRESH = Symbol.for('game-platform.fresh-fetch-globals');
const fresh = ((globalThis as Record<symbol, unknown>)[FRESH] ??= { Request: globalThis.Request, Response: globalThis.Response }) as {
  Request: typeof Request;
  Response: typeof Response;
};
globalThis.Request = fresh.Request;
globalThis.Response = fresh.Response;
