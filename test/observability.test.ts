import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../core/deps.js';
import { logError } from '../core/platform/log.js';
import { withRequestContext } from '../core/platform/request-context.js';
import { lambdaHandler } from '../functions/deployed.js';
import { createMetaApp } from '../functions/meta.js';
import { gatewayEvent } from './support/gateway-events.js';

/**
 * What a deployed function writes besides its answer: one EMF line of metrics per request
 * (core/platform/metrics.ts) and log lines carrying the request's ids (core/platform/log.ts). Both go to stdout
 * (and stderr for error lines), which Lambda ships to CloudWatch Logs; here they are captured from the process.
 */
const STAGE = 'v2-testing';

/** Deps of the meta function without keys: health answers, jwks fails (deps.tokens is missing) and logs why. */
const metaDeps = async () => ({ stage: STAGE, production: false, now: () => new Date() }) as unknown as Deps;

const lambdaContext = () => ({ awsRequestId: randomUUID(), functionName: 'game-platform-v2-testing-MetaFunction' });

/** Runs `act` and returns the JSON lines it wrote to stdout and stderr (nothing reaches the terminal meanwhile). */
async function captured(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const chunks: string[] = [];
  const capture = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture as never);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture as never);
  try {
    await act();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

type Emf = { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } } & Record<
  string,
  unknown
>;
const emfLines = (lines: Record<string, unknown>[]) => lines.filter((line) => '_aws' in line) as Emf[];
const requestMetrics = (lines: Record<string, unknown>[]) => emfLines(lines).filter((line) => 'Requests' in line);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('metrics per operation (EMF)', () => {
  it('a request through the Lambda handler writes its count and latency under its group, operation and status class', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'game-platform-v2-testing-MetaFunction');
    // What Lambda sets for an instance started on demand (Powertools counts a cold start only then).
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
    const handler = lambdaHandler(createMetaApp, metaDeps);
    let status: number | undefined;
    const lines = await captured(async () => {
      status = ((await handler(gatewayEvent('GET', `/${STAGE}/health`) as never, lambdaContext() as never)) as { statusCode: number }).statusCode;
    });
    expect(status).toBe(200);
    const [metric, ...more] = requestMetrics(lines);
    expect(more).toEqual([]);
    expect(metric!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'GamePlatform',
        Dimensions: [['service', 'stage', 'group', 'operation', 'status']],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
        ],
      },
    ]);
    expect(metric).toMatchObject({ service: 'game-platform', stage: STAGE, group: 'meta', operation: 'health', status: '2xx', Requests: 1 });
    expect(metric!.Latency).toEqual(expect.any(Number));
    expect(metric!.Latency as number).toBeGreaterThanOrEqual(0);
    // EMF's timestamp: epoch milliseconds, within the 14 days before and 2 hours after that CloudWatch takes.
    const stamp = (metric!._aws as unknown as { Timestamp: number }).Timestamp;
    expect(Number.isInteger(stamp) && Math.abs(stamp - Date.now()) < 60_000).toBe(true);
    // The instance's first invocation also counts its cold start, once, as its own metric.
    const coldStarts = emfLines(lines).filter((line) => 'ColdStart' in line);
    expect(coldStarts).toHaveLength(1);
    expect(coldStarts[0]!._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'GamePlatform', Dimensions: [['service', 'stage', 'function_name']], Metrics: [{ Name: 'ColdStart', Unit: 'Count' }] },
    ]);
    expect(coldStarts[0]).toMatchObject({ service: 'game-platform', stage: STAGE, function_name: 'game-platform-v2-testing-MetaFunction', ColdStart: 1 });

    // Each invocation flushes its own line: a second request writes one more, and no second cold start.
    const again = await captured(() => handler(gatewayEvent('GET', `/${STAGE}/health`) as never, lambdaContext() as never));
    expect(requestMetrics(again)).toHaveLength(1);
    expect(emfLines(again).filter((line) => 'ColdStart' in line)).toEqual([]);
  });

  it('a request that fails is counted under 5xx, and its error line carries the Lambda and API Gateway request ids and the operation', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'game-platform-v2-testing-MetaFunction');
    const handler = lambdaHandler(createMetaApp, metaDeps);
    const event = gatewayEvent('GET', `/${STAGE}/.well-known/jwks.json`);
    const context = lambdaContext();
    let status: number | undefined;
    const lines = await captured(async () => {
      status = ((await handler(event as never, context as never)) as { statusCode: number }).statusCode;
    });
    expect(status).toBe(500);
    expect(requestMetrics(lines)).toEqual([expect.objectContaining({ group: 'meta', operation: 'jwks', status: '5xx', Requests: 1 })]);
    const errors = lines.filter((line) => line.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: 'unhandled error',
      service: 'game-platform',
      function_request_id: context.awsRequestId,
      correlation_id: event.requestContext.requestId,
      operation: 'meta.jwks',
    });
  });

  it('writes nothing outside Lambda (local server, tests, bench) or when POWERTOOLS_METRICS_DISABLED is true', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', undefined);
    const handler = lambdaHandler(createMetaApp, metaDeps);
    const local = await captured(() => handler(gatewayEvent('GET', `/${STAGE}/health`) as never, lambdaContext() as never));
    expect(emfLines(local)).toEqual([]);

    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'game-platform-v2-testing-MetaFunction');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    const disabled = await captured(() => handler(gatewayEvent('GET', `/${STAGE}/health`) as never, lambdaContext() as never));
    expect(emfLines(disabled)).toEqual([]);
  });
});

describe('log lines carry the request ids', () => {
  it('every line written while a request is served carries its ids; a line outside any request carries none', async () => {
    const ids = { requestId: randomUUID(), apiRequestId: `apigw-${randomUUID()}`, group: 'pay', operation: 'minus_tickets' };
    const lines = await captured(() =>
      withRequestContext(ids, async () => {
        await logError('first', { step: 1 });
        // Still the same request after an await.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await logError('second', { step: 2 });
      }),
    );
    expect(lines.map((line) => [line.message, line.function_request_id, line.correlation_id, line.operation, line.step])).toEqual([
      ['first', ids.requestId, ids.apiRequestId, 'pay.minus_tickets', 1],
      ['second', ids.requestId, ids.apiRequestId, 'pay.minus_tickets', 2],
    ]);

    const outside = await captured(() => logError('outside', {}));
    expect(outside).toHaveLength(1);
    expect(outside[0]).not.toHaveProperty('function_request_id');
    expect(outside[0]).not.toHaveProperty('correlation_id');
  });

  it('a scheduled job runs inside its Lambda request id', async () => {
    vi.resetModules();
    const { requestLogFields } = await import('../core/platform/request-context.js');
    const seen: unknown[] = [];
    // The indexer of a stage without a chain: it reads its Deps and returns; what it sees then is its run's context.
    vi.doMock('../functions/deployed.js', () => ({
      deployedDeps: () => async () => {
        seen.push(requestLogFields().function_request_id);
        return { chain: undefined };
      },
    }));
    try {
      const { handler } = await import('../functions/jobs/indexer.js');
      const awsRequestId = randomUUID();
      await expect(handler({}, { awsRequestId, getRemainingTimeInMillis: () => 60_000 })).resolves.toEqual({});
      expect(seen).toEqual([awsRequestId]);
    } finally {
      vi.doUnmock('../functions/deployed.js');
    }
  });
});
