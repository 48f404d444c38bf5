import { afterAll } from 'vitest';
import { inspectResponses, responseInspectionDir } from './response-inspection.js';
import { captureServerLogs, serverLogDir } from './server-logs.js';

// Every test process keeps the service's log output of the run (test/support/server-logs.ts) and inspects
// every response it makes (test/support/response-inspection.ts), for test/server-logs.test.ts.
const logs = serverLogDir();
if (logs) captureServerLogs(logs);
const responses = responseInspectionDir();
if (responses) afterAll(inspectResponses(responses));
