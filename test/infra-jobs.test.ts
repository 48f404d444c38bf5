import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployWithStandins, type Component, type CronV2Args, type Deployment, type FunctionArgs, type QueueArgs } from './support/sst-standins.js';

/** The scheduled jobs of infra/jobs.ts, run through sst.config.ts against the SST stand-ins. */
let dev: Deployment;
let indexer: Component<CronV2Args>;
let settlement: Component<CronV2Args>;
let deletions: Component<CronV2Args>;
let rankSnapshots: Component<CronV2Args>;

beforeAll(async () => {
  dev = await deployWithStandins('v2-testing');
  const crons = dev.components.filter((c) => c.type === 'sst.aws.CronV2') as Component<CronV2Args>[];
  expect(crons.map((c) => c.name)).toEqual(['Indexer', 'Settlement', 'Deletions', 'RankSnapshots']);
  [indexer, settlement, deletions, rankSnapshots] = [crons[0]!, crons[1]!, crons[2]!, crons[3]!];
});

describe('chain indexer job', () => {
  it('runs every minute, without scheduler retries (the next run is the retry)', () => {
    expect(indexer.args.schedule).toBe('rate(1 minute)');
    expect(indexer.args.retries ?? 0).toBe(0);
    expect(indexer.args.enabled ?? true).toBe(true);
  });

  it('runs functions/jobs/indexer.handler, built like the group functions, within a minute', () => {
    const fn = indexer.args.function as FunctionArgs & { timeout?: string };
    expect(typeof fn).toBe('object');
    expect(fn.handler).toBe('functions/jobs/indexer.handler');
    expect(fn.architecture).toBe('arm64');
    expect(fn.runtime).toBe('nodejs24.x');
    expect(fn.nodejs).toEqual({ format: 'esm', minify: true, splitting: true });
    expect(fn.timeout).toBe('60 seconds');
    expect(existsSync('functions/jobs/indexer.ts')).toBe(true);
    expect(readFileSync('functions/jobs/indexer.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
  });

  it('keeps chain features off by default: ChainConfig defaults to the empty string', () => {
    const secret = dev.components.find((c) => c.name === 'ChainConfig')!;
    expect(secret.args).toEqual({ placeholder: '' });
  });
});

describe('settlement job', () => {
  // What each job is linked to (only what it uses) is checked per function in test/infra.test.ts.
  it('runs every 10 minutes, without scheduler retries (the next run is the retry)', () => {
    expect(settlement.args.schedule).toBe('rate(10 minutes)');
    expect(settlement.args.retries ?? 0).toBe(0);
    expect(settlement.args.enabled ?? true).toBe(true);
  });

  it('runs functions/jobs/settlement.handler, built like the group functions, within 5 minutes', () => {
    const fn = settlement.args.function as FunctionArgs & { timeout?: string };
    expect(fn.handler).toBe('functions/jobs/settlement.handler');
    expect(fn.architecture).toBe('arm64');
    expect(fn.runtime).toBe('nodejs24.x');
    expect(fn.nodejs).toEqual({ format: 'esm', minify: true, splitting: true });
    expect(fn.timeout).toBe('5 minutes');
    expect(readFileSync('functions/jobs/settlement.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
  });

  it('keeps claims off by default: ClaimSigningKey defaults to the empty string', () => {
    const secret = dev.components.find((c) => c.name === 'ClaimSigningKey')!;
    expect(secret.args).toEqual({ placeholder: '' });
  });
});

describe('deletions job', () => {
  it('runs functions/jobs/deletions.handler every 10 minutes within 5 minutes, without scheduler retries', () => {
    expect(deletions.args.schedule).toBe('rate(10 minutes)');
    expect(deletions.args.retries ?? 0).toBe(0);
    const fn = deletions.args.function as FunctionArgs & { timeout?: string };
    expect(fn.handler).toBe('functions/jobs/deletions.handler');
    expect(fn.timeout).toBe('5 minutes');
    expect(readFileSync('functions/jobs/deletions.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
  });
});

describe('rank snapshots job', () => {
  it('runs functions/jobs/rank-snapshots.handler every minute within 5 minutes, without scheduler retries (the next minute is the retry)', () => {
    expect(rankSnapshots.args.schedule).toBe('rate(1 minute)');
    expect(rankSnapshots.args.retries ?? 0).toBe(0);
    expect(rankSnapshots.args.enabled ?? true).toBe(true);
    const fn = rankSnapshots.args.function as FunctionArgs & { timeout?: string };
    expect(fn.handler).toBe('functions/jobs/rank-snapshots.handler');
    expect([fn.architecture, fn.runtime, fn.nodejs]).toEqual(['arm64', 'nodejs24.x', { format: 'esm', minify: true, splitting: true }]);
    // Longer than the schedule: a run overlapping the next one is safe (each board's snapshot is written by one).
    expect(fn.timeout).toBe('5 minutes');
    expect(readFileSync('functions/jobs/rank-snapshots.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
  });
});

describe('failed runs are dead-lettered (the JobFailures queue)', () => {
  const queue = () => dev.components.find((c) => c.name === 'JobFailures') as Component<QueueArgs>;
  const queueArn = () => (queue().instance as { arn: string }).arn;

  it('is an SQS queue keeping its records 14 days', () => {
    expect(queue().type).toBe('sst.aws.Queue');
    expect(queue().args.transform?.queue).toEqual({ messageRetentionSeconds: 1_209_600 });
  });

  it.each(['Indexer', 'Settlement', 'Deletions', 'RankSnapshots'])(
    '%s: a run that fails goes to the queue at once (no Lambda retries), and so does an invocation the scheduler could not make',
    (name) => {
      const cron = ({ Indexer: indexer, Settlement: settlement, Deletions: deletions, RankSnapshots: rankSnapshots } as Record<string, Component<CronV2Args>>)[
        name
      ]!.args;
      const fn = cron.function as FunctionArgs;
      // Asynchronous invocation settings (SST's FunctionEventInvokeConfig): no retries, failures to the queue.
      expect(fn.retries).toBe(0);
      expect(fn.transform?.eventInvokeConfig).toEqual({ destinationConfig: { onFailure: { destination: queueArn() } } });
      // Lambda sends to the destination with the function's role.
      expect(fn.permissions).toEqual([{ actions: ['sqs:SendMessage'], resources: [queueArn()] }]);
      // The schedule's own dead-letter queue (SST grants its role sqs:SendMessage on it).
      expect(cron.dlq).toBe(queueArn());
      expect(cron.retries ?? 0).toBe(0);
    },
  );

  it('the group functions are invoked synchronously by API Gateway: no dead-letter settings there', () => {
    for (const fn of dev.components.filter((c) => c.type === 'sst.aws.Function') as Component<FunctionArgs>[]) {
      expect(fn.args.retries, fn.name).toBeUndefined();
      expect(fn.args.transform?.eventInvokeConfig, fn.name).toBeUndefined();
    }
  });
});
