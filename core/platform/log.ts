import type { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';

/**
 * Structured logs (AWS Lambda Powertools' logger: JSON lines with level, timestamp and service, which
 * CloudWatch can query). It is loaded on first use, so a request that logs nothing pays nothing for it at
 * cold start. Never log secrets, tokens, passwords or request bodies.
 */
let logger: Promise<Logger> | undefined;

function load(): Promise<Logger> {
  return (logger ??= import('@aws-lambda-powertools/logger').then(
    ({ Logger }) => new Logger({ serviceName: 'game-platform', logLevel: (process.env.LOG_LEVEL ?? 'INFO') as LogLevel }),
  ));
}

export async function logError(message: string, details: Record<string, unknown>) {
  (await load()).error(message, details);
}
