import { captureServerLogs, serverLogDir } from './server-logs.js';

// Every test process keeps the service's log output of the run (test/support/server-logs.ts).
const dir = serverLogDir();
if (dir) captureServerLogs(dir);
