import { createHash } from 'node:crypto';
import { api, heroApi } from './api.js';
import { functionName, functions } from './functions.js';
import { deletions, indexer, jobFailures, rankSnapshots, settlement } from './jobs.js';
import { dayFigures } from './day-figures.js';
import { rankPages } from './rank-pages.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../core/platform/metrics.js';
import { SPONSOR_BALANCE_LOW } from '../core/sponsorship/metrics.js';

/**
 * CloudWatch alarms, all sent to one SNS topic (state changes both ways: ALARM and back to OK). Every stage has
 * them (a dev stage is where an alarm is first seen firing); who is told is per stage, AlarmEmail below.
 *
 * - Each Lambda (every group function, every job and the live heads' stream consumer): `Errors` and
 *   `Throttles`, any in 5 minutes. A group function's error is a crash, a timeout or a failed init, not an error
 *   answer (the app answers those itself), so one is worth a look; a throttle means a function hit its reserved
 *   concurrency or the account's limit.
 * - A job's failed run, and a stream batch the live heads' consumer gave up on, also land in the jobs'
 *   dead-letter queue (infra/jobs.ts, infra/rank-pages.ts): an alarm while it holds any.
 * - The live heads falling behind: the consumer's `IteratorAge` (how old the last record of a batch was when
 *   Lambda handed the batch over) above a minute within 5 minutes. It stays small while the consumer keeps up;
 *   a minute means batches keep failing and are retried, or the consumer does not keep up with the reports.
 * - The gas sponsor's balance under its threshold: the count core/sponsorship/sponsor.ts writes when it refuses a
 *   claim for it (an EMF metric, `SponsorBalanceLow`), any in 5 minutes.
 * - Each API: its `5xx` answers, any in 5 minutes (500s the app could not handle, 503s when the table throttles,
 *   integration failures), which a function's `Errors` does not count.
 * test/infra.test.ts ("alarms") checks that every function, job, queue and API has its alarm.
 */
export const alarmTopic = new sst.aws.SnsTopic('Alarms');

/**
 * Who receives the alarms: email addresses, separated by commas (`npx sst secret set AlarmEmail
 * 'ops@example.com,oncall@example.com' --stage $STAGE`, then deploy). Each gets a subscription, which AWS asks
 * the address to confirm. Empty (the default): no one is subscribed; the alarms still show in CloudWatch.
 * Not secret, but per stage, and kept by SST across deploys as the other settings are.
 */
export const alarmEmail = new sst.Secret('AlarmEmail', '');

export function alarmEmailsOf(setting: string): string[] {
  const addresses = setting.split(/[\s,]+/).filter(Boolean);
  for (const address of addresses) {
    // A deploy with a mistyped address fails here, naming it, instead of subscribing nobody.
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) throw new Error(`AlarmEmail: ${address} is not an email address`);
  }
  return [...new Set(addresses)];
}

/** One subscription per address, named by the address (so adding or removing one leaves the others alone). */
export const alarmSubscriptions = alarmEmail.value.apply((setting: string) =>
  alarmEmailsOf(setting).map(
    (endpoint) =>
      new aws.sns.TopicSubscription(`AlarmEmail${createHash('sha256').update(endpoint).digest('hex').slice(0, 12)}`, {
        topic: alarmTopic.arn,
        protocol: 'email',
        endpoint,
      }),
  ),
);

const FIVE_MINUTES = 300;

interface Metric {
  namespace: string;
  metricName: string;
  dimensions: Record<string, unknown>;
  statistic?: string;
}

/** An alarm on a metric over one 5-minute period, to the topic both ways; no data is not a breach. */
function alarmIn5Minutes(name: string, description: string, metric: Metric, breach: { threshold: number; comparisonOperator: string }) {
  return new aws.cloudwatch.MetricAlarm(name, {
    alarmDescription: description,
    namespace: metric.namespace,
    metricName: metric.metricName,
    dimensions: metric.dimensions,
    statistic: metric.statistic ?? 'Sum',
    period: FIVE_MINUTES,
    evaluationPeriods: 1,
    ...breach,
    treatMissingData: 'notBreaching',
    alarmActions: [alarmTopic.arn],
    okActions: [alarmTopic.arn],
  });
}

/** An alarm on any occurrence (Sum >= 1) of a metric within 5 minutes. */
const anyIn5Minutes = (name: string, description: string, metric: Metric) =>
  alarmIn5Minutes(name, description, metric, { threshold: 1, comparisonOperator: 'GreaterThanOrEqualToThreshold' });

function lambdaAlarms(component: string, lambdaName: unknown) {
  anyIn5Minutes(`${component}Errors`, `${component}: a Lambda invocation failed (crash, timeout or init failure)`, {
    namespace: 'AWS/Lambda',
    metricName: 'Errors',
    dimensions: { FunctionName: lambdaName },
  });
  anyIn5Minutes(`${component}Throttles`, `${component}: a Lambda invocation was throttled (reserved or account concurrency reached)`, {
    namespace: 'AWS/Lambda',
    metricName: 'Throttles',
    dimensions: { FunctionName: lambdaName },
  });
}

for (const [group, fn] of Object.entries(functions)) lambdaAlarms(functionName(group), fn.name);
// CronV2 builds its function itself; its name is known once it is.
for (const [component, job] of [
  ['Indexer', indexer],
  ['Settlement', settlement],
  ['Deletions', deletions],
  ['RankSnapshots', rankSnapshots],
] as const) {
  lambdaAlarms(
    component,
    job.nodes.function.apply((fn: { name: unknown }) => fn.name),
  );
}

// So does the stream subscription, once the subscription itself is known (subscribe answers an Output of it).
const subscriberName = (subscription: typeof rankPages) =>
  subscription.apply((subscriber: { nodes: { function: unknown } }) => subscriber.nodes.function).apply((fn: { name: unknown }) => fn.name);
const rankPagesName = subscriberName(rankPages);
lambdaAlarms('RankPages', rankPagesName);
lambdaAlarms('DayFigures', subscriberName(dayFigures));
alarmIn5Minutes(
  'RankPagesIteratorAge',
  "RankPages: a stream batch it was given held a record over a minute old (the boards' live heads are falling behind the reports)",
  { namespace: 'AWS/Lambda', metricName: 'IteratorAge', dimensions: { FunctionName: rankPagesName }, statistic: 'Maximum' },
  { threshold: 60_000, comparisonOperator: 'GreaterThanThreshold' },
);

anyIn5Minutes(
  'JobFailuresQueued',
  'A scheduled job run, or a stream batch of the live heads or the day figures, failed: its record is in the JobFailures queue',
  {
    namespace: 'AWS/SQS',
    metricName: 'ApproximateNumberOfMessagesVisible',
    dimensions: { QueueName: jobFailures.nodes.queue.name },
    statistic: 'Maximum',
  },
);

// The gas sponsor refused a claim for its low balance (core/sponsorship/sponsor.ts counts it): fund it.
anyIn5Minutes('SponsorBalanceLow', "The gas sponsor's SUI is under its threshold: sponsored claims are refused (503) until it is funded", {
  namespace: METRICS_NAMESPACE,
  metricName: SPONSOR_BALANCE_LOW,
  dimensions: { service: METRICS_SERVICE, stage: $app.stage },
});

for (const [component, gateway] of [
  ['Api', api],
  ['HeroApi', heroApi],
] as const) {
  anyIn5Minutes(`${component}5xx`, `${component}: answers with a 5xx status`, {
    namespace: 'AWS/ApiGateway',
    metricName: '5xx',
    dimensions: { ApiId: gateway.nodes.api.id },
  });
}
