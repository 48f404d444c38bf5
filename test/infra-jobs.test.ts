import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployWithStandins, type Component, type CronV2Args, type Deployment, type FunctionArgs } from './support/sst-standins.js';

/** The scheduled jobs of infra/jobs.ts, run through sst.config.ts against the SST stand-ins. */
let dev: Deployment;
let indexer: Component<CronV2Args>;
let settlement: Component<CronV2Args>;

beforeAll(async () => {
  dev = await deployWithStandins('v2-testing');
  const crons = dev.components.filter((c) => c.type === 'sst.aws.CronV2') as Component<CronV2Args>[];
  expect(crons.map((c) => c.name)).toEqual(['Indexer', 'Settlement']);
  [indexer, settlement] = [crons[0]!, crons[1]!];
});

describe('chain indexer job', () => {
  it('runs every minute, without scheduler retries (the next run is the retry)', () => {
    expect(indexer.args.schedule).toBe('rate(1 minute)');
    expect(indexer.args.retries ?? 0).toBe(0);
    expect(indexer.args.enabled ?? true).toBe(true);
  });

  it('runs functions/indexer.handler, built like the group functions, within a minute', () => {
    const fn = indexer.args.function as FunctionArgs & { timeout?: string };
    expect(typeof fn).toBe('object');
    expect(fn.handler).toBe('functions/indexer.handler');
    expect(fn.architecture).toBe('arm64');
    expect(fn.runtime).toBe('nodejs24.x');
    expect(fn.nodejs).toEqual({ format: 'esm', minify: true, splitting: true });
    expect(fn.timeout).toBe('60 seconds');
    expect(existsSync('functions/indexer.ts')).toBe(true);
    expect(readFileSync('functions/indexer.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
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

  it('runs functions/settlement.handler, built like the group functions, within 5 minutes', () => {
    const fn = settlement.args.function as FunctionArgs & { timeout?: string };
    expect(fn.handler).toBe('functions/settlement.handler');
    expect(fn.architecture).toBe('arm64');
    expect(fn.runtime).toBe('nodejs24.x');
    expect(fn.nodejs).toEqual({ format: 'esm', minify: true, splitting: true });
    expect(fn.timeout).toBe('5 minutes');
    expect(readFileSync('functions/settlement.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
  });

  it('keeps claims off by default: ClaimSigningKey defaults to the empty string', () => {
    const secret = dev.components.find((c) => c.name === 'ClaimSigningKey')!;
    expect(secret.args).toEqual({ placeholder: '' });
  });
});
