import type { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * Metrics per operation, in CloudWatch's embedded metric format (EMF) through AWS Lambda Powertools: one JSON line
 * on stdout per request, which CloudWatch Logs turns into metrics without an API call.
 *
 * Namespace `GamePlatform`; dimensions `service` (game-platform), `stage`, `group` (the function), `operation`
 * (the route table's name) and `status` (`2xx`, `4xx`, `5xx`); metrics `Requests` (count) and `Latency`
 * (milliseconds, the whole invocation as the handler saw it). A function's first invocation also writes
 * Powertools' `ColdStart` count (dimensions `service`, `stage`, `function_name`).
 *
 * Only in Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set by its runtime) and unless `POWERTOOLS_METRICS_DISABLED` is
 * true: the local server, the tests and the bench write nothing. The Powertools module is imported on the first
 * invocation (its own chunk when deployed), not at cold init; each invocation's metrics are flushed before it
 * returns, as Lambda may freeze the instance right after.
 */
export const METRICS_NAMESPACE = 'GamePlatform';
const SERVICE = 'game-platform';

export interface RequestMeasure {
  stage: string;
  group?: string;
  operation?: string;
  status: number;
  milliseconds: number;
  /** Lambda's function name, for the cold start metric. */
  functionName?: string;
}

export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env.AWS_LAMBDA_FUNCTION_NAME) return false;
  const disabled = env.POWERTOOLS_METRICS_DISABLED?.trim().toLowerCase();
  return !(disabled && ['1', 'true', 'y', 'yes', 'on'].includes(disabled));
}

let metrics: Promise<Metrics> | undefined;
let loadedStage: string | undefined;

/**
 * Starts loading the metrics module for this invocation (once per instance), so the import overlaps the request
 * instead of adding to its end. Undefined when metrics are off.
 */
export function startMetrics(stage: string): Promise<Metrics> | undefined {
  if (!metricsEnabled()) return undefined;
  loadedStage = stage;
  return (metrics ??= import('@aws-lambda-powertools/metrics').then(
    ({ Metrics }) => new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE, defaultDimensions: { stage: loadedStage! } }),
  ));
}

export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** Writes the request's metrics (one EMF line) and flushes them. Never throws: a metric is not worth a request. */
export async function recordRequest(pending: Promise<Metrics> | undefined, measure: RequestMeasure): Promise<void> {
  if (!pending) return;
  try {
    const [m, { MetricUnit }] = await Promise.all([pending, import('@aws-lambda-powertools/metrics')]);
    if (measure.functionName) m.captureColdStartMetric(measure.functionName);
    m.addDimensions({
      group: measure.group ?? 'none',
      operation: measure.operation ?? 'none',
      status: statusClass(measure.status),
    });
    m.addMetric('Requests', MetricUnit.Count, 1);
    m.addMetric('Latency', MetricUnit.Milliseconds, Math.round(measure.milliseconds * 100) / 100);
    m.publishStoredMetrics();
  } catch {
    // Metrics are best effort; the response stands.
  }
}
