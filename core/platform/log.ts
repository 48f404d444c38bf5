import type { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { requestLogFields } from './request-context.js';

/**
 * Structured logs (AWS Lambda Powertools' logger: JSON lines with level, timestamp and service, which
 * CloudWatch can query). It is loaded on first use, so a request that logs nothing pays nothing for it at
 * cold start. Never log secrets, tokens, passwords or request bodies.
 *
 * Every line written while a Lambda invocation is served carries its ids (core/platform/request-context.ts):
 * `function_request_id` (Lambda's request id, as on the invocation's START/END/REPORT lines), `correlation_id`
 * (API Gateway's request id, as in its access log) and the `operation`, so one request's lines are found together.
 */
let logger: Promise<Logger> | undefined;

function load(): Promise<Logger> {
  return (logger ??= import('@aws-lambda-powertools/logger').then(
    ({ Logger }) => new Logger({ serviceName: 'game-platform', logLevel: (process.env.LOG_LEVEL ?? 'INFO') as LogLevel }),
  ));
}

export async function logError(message: string, details: Record<string, unknown>) {
  // Read before the first await: the context is the caller's.
  const ids = requestLogFields();
  (await load()).error(message, { ...details, ...ids });
}
