/**
 * Metrics per operation, in CloudWatch's embedded metric format (EMF): one JSON line on stdout per request,
 * which CloudWatch Logs turns into metrics without an API call.
 *
 * Namespace `GamePlatform`; dimensions `service` (game-platform), `stage`, `group` (the function), `operation`
 * (the route table's name) and `status` (`2xx`, `4xx`, `5xx`); metrics `Requests` (count) and `Latency`
 * (milliseconds, the whole invocation as the handler saw it). An instance's first invocation also writes a
 * `ColdStart` count (dimensions `service`, `stage`, `function_name`) when Lambda started it on demand (not for
 * provisioned concurrency), as AWS Lambda Powertools counts it.
 *
 * Only in Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set by its runtime) and unless `POWERTOOLS_METRICS_DISABLED` is
 * true (the switch operators know from Powertools): the local server, the tests and the bench write nothing, but
 * for the bench's cold starts, which run as Lambda does (bench/first-response.ts).
 * Each invocation's line is written before it returns, as Lambda may freeze the instance right after.
 *
 * Written here rather than with Powertools' Metrics: an EMF line is one documented JSON object, and loading
 * Powertools cost each cold start about 4 ms (docs/performance.md, "Cold start").
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

/** Whether the instance has yet to count its cold start. */
let coldStartPending = true;

export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

type Unit = 'Count' | 'Milliseconds';

/** One EMF line: the dimensions and the metrics' values as members, their names and units under `_aws`. */
function emfLine(dimensions: Record<string, string>, metrics: Record<string, [Unit, number]>): string {
  const values = Object.fromEntries(Object.entries(metrics).map(([name, [, value]]) => [name, value]));
  return `${JSON.stringify({
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [Object.keys(dimensions)],
          Metrics: Object.entries(metrics).map(([name, [unit]]) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    ...dimensions,
    ...values,
  })}\n`;
}

/** The service's metrics dimension, for infra's alarms on what the code counts. */
export const METRICS_SERVICE = SERVICE;

/**
 * Counts one event of `metric` (dimensions `service` and `stage`) for an alarm to watch, in Lambda only, as the
 * request metrics; never throws.
 */
export function recordEvent(stage: string, metric: string): void {
  if (!metricsEnabled()) return;
  try {
    process.stdout.write(emfLine({ service: SERVICE, stage }, { [metric]: ['Count', 1] }));
  } catch {
    // Metrics are best effort.
  }
}

/**
 * Writes the request's metrics line (and the instance's cold start, once), straight to stdout: Lambda's
 * console prefixes each line it writes, and CloudWatch reads an EMF line only as a whole JSON object. Never
 * throws: a metric is not worth a request.
 */
export function recordRequest(measure: RequestMeasure): void {
  if (!metricsEnabled()) return;
  try {
    const service = { service: SERVICE, stage: measure.stage };
    let lines = '';
    if (coldStartPending) {
      coldStartPending = false;
      const onDemand = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
      const functionName = measure.functionName?.trim();
      if (onDemand && functionName) lines += emfLine({ ...service, function_name: functionName }, { ColdStart: ['Count', 1] });
    }
    lines += emfLine(
      { ...service, group: measure.group ?? 'none', operation: measure.operation ?? 'none', status: statusClass(measure.status) },
      { Requests: ['Count', 1], Latency: ['Milliseconds', Math.round(measure.milliseconds * 100) / 100] },
    );
    process.stdout.write(lines);
  } catch {
    // Metrics are best effort; the response stands.
  }
}
