import { vi } from 'vitest';

/**
 * Recording stand-ins of the globals SST gives sst.config.ts and infra/ (`$config`, `$app`, `$interpolate`,
 * `sst.*`). SST's real components need `sst install`, which downloads Pulumi; these only record what infra asks
 * for, so a test can run sst.config.ts for a stage and inspect the result. Outputs are plain strings here.
 * A component infra uses without a stand-in fails loudly: add one below, mirroring SST's constructor.
 */

/** The subset of SST's component args the tests read (names as in SST's FunctionArgs, DynamoArgs, ...). */
export interface FunctionArgs {
  handler: string;
  architecture?: string;
  runtime?: string;
  nodejs?: { format?: string; minify?: boolean; splitting?: boolean };
  link?: unknown[];
  timeout?: string;
  /** Reserved (and provisioned) concurrency: SST sets the Lambda's reservedConcurrentExecutions from `reserved`. */
  concurrency?: { reserved?: number; provisioned?: number };
  /** Retries of asynchronous invocations: SST creates a FunctionEventInvokeConfig with maximumRetryAttempts. */
  retries?: number;
  /** Files copied into the function's package (`to` relative to its root). */
  copyFiles?: { from: string; to?: string }[];
  environment?: Record<string, string>;
  /** IAM statements added to the function's role. */
  permissions?: { actions: string[]; resources: unknown[] }[];
  transform?: { function?: Transform; eventInvokeConfig?: Transform; role?: Transform; logGroup?: Transform };
}

/** SST's CronV2Args (platform/src/components/aws/cron-v2.ts): a function (handler path or FunctionArgs) on a schedule. */
export interface CronV2Args {
  schedule: string;
  function?: string | (FunctionArgs & { timeout?: string });
  retries?: number;
  /** The ARN of the SQS queue the schedule dead-letters the invocations it could not make to. */
  dlq?: unknown;
  enabled?: boolean;
  timezone?: string;
}

/** SST's ApiGatewayV2Args: `cors` and `transform.stage` (the `$default` stage's aws.apigatewayv2.StageArgs) are read. */
export interface ApiGatewayV2Args {
  cors?:
    | boolean
    | { allowOrigins?: string[]; allowMethods?: string[]; allowHeaders?: string[]; exposeHeaders?: string[]; maxAge?: string; allowCredentials?: boolean };
  transform?: { stage?: Transform; api?: Transform };
}

/** SST's QueueArgs (platform/src/components/aws/queue.ts). */
export interface QueueArgs {
  fifo?: boolean;
  transform?: { queue?: Transform };
}

/** The aws.cloudwatch.MetricAlarm args infra sets (Pulumi's MetricAlarmArgs). */
export interface MetricAlarmArgs {
  alarmDescription?: string;
  namespace: string;
  metricName: string;
  dimensions: Record<string, unknown>;
  statistic: string;
  period: number;
  evaluationPeriods: number;
  threshold: number;
  comparisonOperator: string;
  treatMissingData?: string;
  alarmActions?: unknown[];
  okActions?: unknown[];
}

/** Pulumi's aws.sns.TopicSubscriptionArgs. */
export interface TopicSubscriptionArgs {
  topic: unknown;
  protocol: string;
  endpoint: string;
}

export interface DynamoArgs {
  fields: Record<string, string>;
  primaryIndex: { hashKey: string; rangeKey?: string };
  /** SST's projection: `all` (its default), `keys-only`, or the attributes to include. */
  globalIndexes?: Record<string, { hashKey: string; rangeKey?: string; projection?: 'all' | 'keys-only' | string[] }>;
  ttl?: string;
  /** The stream's view, in SST's words (`new-and-old-images` is DynamoDB's NEW_AND_OLD_IMAGES); none: no stream. */
  stream?: 'keys-only' | 'new-image' | 'old-image' | 'new-and-old-images';
  transform?: { table?: Transform };
}

/** The aws.lambda.EventSourceMapping args infra sets (Pulumi's EventSourceMappingArgs) for a stream. */
export interface EventSourceMappingArgs {
  startingPosition?: string;
  batchSize?: number;
  maximumBatchingWindowInSeconds?: number;
  bisectBatchOnFunctionError?: boolean;
  maximumRetryAttempts?: number;
  maximumRecordAgeInSeconds?: number;
  parallelizationFactor?: number;
  destinationConfig?: { onFailure?: { destinationArn: unknown } };
}

/**
 * SST's DynamoSubscriberArgs (platform/src/components/aws/dynamo.ts), with the subscriber `Dynamo.subscribe` was
 * given: what the stand-in records of a subscription. Each filter is a Lambda event filter pattern (SST sends it
 * as JSON); `transform.eventSourceMapping` is merged over SST's defaults (its own startingPosition LATEST).
 */
export interface DynamoSubscriptionArgs {
  subscriber: string | FunctionArgs;
  filters?: Record<string, unknown>[];
  transform?: { eventSourceMapping?: EventSourceMappingArgs };
}

export interface BucketArgs {
  access?: 'public' | 'cloudfront';
}

/** SST's Transform<T>: partial args merged over the defaults, or a callback that edits them in place. */
export type Transform = Record<string, unknown> | ((args: Record<string, unknown>, opts: object, name: string) => void);

export interface Component<A = unknown> {
  type: string;
  /** The component name (e.g. `Table`), which is also the `Resource.<name>` key a linked function sees. */
  name: string;
  args: A;
  instance: object;
}

export interface Route {
  api: string;
  method: string;
  /** The API Gateway path, e.g. `/v2-testing/merchant/create` or `/x/{id}`. */
  path: string;
  /** What the route invokes: a function ARN, a handler path or function args. */
  handler: unknown;
}

export interface AppConfig {
  name: string;
  removal?: 'remove' | 'retain' | 'retain-all';
  protect?: boolean;
  home: string;
}

interface SstConfig {
  app(input: { stage: string }): AppConfig | Promise<AppConfig>;
  run(): Promise<Record<string, unknown> | undefined>;
}

export interface Deployment {
  stage: string;
  /** What app() returned for the stage. */
  app: AppConfig;
  /** What run() returned. */
  outputs: Record<string, unknown>;
  components: Component[];
  routes: Route[];
}

const physical = (stage: string, name: string) => `game-platform-${stage}-${name.toLowerCase()}-standin`;

/**
 * A stand-in of Pulumi's Output, for the values infra derives from a secret (`secret.value.apply(...)`): `apply`
 * maps the value when it is read, as Pulumi runs it once the value is known; a test reads it with `resolved`.
 * Nothing is computed for a deployment whose test never reads it.
 */
export class StandinOutput<T> {
  private value: { known: T } | undefined;
  /** Outputs derived from this one with `apply`, resolved with it by `settle`. */
  private readonly derived: StandinOutput<unknown>[] = [];
  constructor(private readonly read: () => T) {}
  /** As Pulumi's: an Output the map answers is unwrapped (`a.apply(() => b)` is b's value, not an Output of it). */
  apply<U>(map: (value: T) => U): StandinOutput<U> {
    const derived = new StandinOutput(() => resolvedOf(map(this.resolved)) as U);
    this.derived.push(derived as StandinOutput<unknown>);
    return derived;
  }
  /** The value, computed once (as Pulumi computes an output once): components created in an apply are created once. */
  get resolved(): T {
    this.value ??= { known: this.read() };
    return this.value.known;
  }
  /** Resolves this output and everything derived from it, as a deploy does once the value is known. */
  settle(): void {
    void this.resolved;
    for (const derived of this.derived) derived.settle();
  }
}

/** A value that is an Output in SST (a StandinOutput here) or plain: what a test reads of it. */
export const resolvedOf = (value: unknown): unknown => (value instanceof StandinOutput ? value.resolved : value);

/** SST's LinkableArgs: the properties a linked function sees as `Resource.<name>.<property>`. */
export interface LinkableArgs {
  properties: Record<string, unknown>;
}

/** What a deployment runs with: the values `npx sst secret set` gave the stage's secrets (else their placeholder). */
export interface StandinOptions {
  secrets?: Record<string, string>;
  /**
   * Secrets whose derived outputs are resolved before the deploy ends, as a real deploy resolves them: what infra
   * creates inside their `apply` (e.g. the AlarmEmail subscriptions) is then recorded. Without it, derived values
   * are computed only when a test reads them.
   */
  settle?: string[];
}

function recorder(stage: string, options: StandinOptions = {}) {
  const components: Component[] = [];
  const routes: Route[] = [];
  const record = <A>(type: string, name: string, args: A, instance: object) => {
    if (components.some((c) => c.name === name)) throw new Error(`two components are named ${name}`);
    components.push({ type, name, args, instance });
  };

  class Dynamo {
    readonly name: string;
    readonly arn: string;
    constructor(
      private readonly componentName: string,
      private readonly args: DynamoArgs,
    ) {
      if (args.stream !== undefined && !['keys-only', 'new-image', 'old-image', 'new-and-old-images'].includes(args.stream)) {
        throw new Error(`Invalid stream ${args.stream} of ${componentName}`);
      }
      this.name = physical(stage, componentName);
      this.arn = `arn:aws:dynamodb:standin:000000000000:table/${this.name}`;
      record('sst.aws.Dynamo', componentName, args, this);
    }

    /**
     * As SST's `subscribe(name, subscriber, args)`: a DynamoLambdaSubscriber named `<table>Subscriber<name>` that
     * builds its function (`<that>Function`), answered as an Output. Refused as SST refuses it: a table without a
     * stream. Refused here too: SST's older form without a name (deprecated), a subscriber that is neither a
     * handler nor function args, and more filters than Lambda takes (5).
     */
    subscribe(name: string, subscriber: string | FunctionArgs, args: Omit<DynamoSubscriptionArgs, 'subscriber'> = {}) {
      if (!this.args.stream) throw new Error(`Cannot subscribe to "${this.componentName}" because stream is not enabled.`);
      if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`subscribe: the first argument is the subscriber's name, got ${JSON.stringify(name)}`);
      if (typeof subscriber !== 'string' && typeof subscriber?.handler !== 'string') throw new Error(`subscribe ${name}: no handler`);
      if ((args.filters ?? []).length > 5) throw new Error(`subscribe ${name}: Lambda takes at most 5 filters`);
      checkStreamMapping(name, args.transform);
      const componentName = `${this.componentName}Subscriber${name}`;
      const fn = physical(stage, `${componentName}Function`);
      const instance = {
        /** As SST's: `nodes.function` is an Output of the sst.aws.Function it builds. */
        nodes: { function: new StandinOutput(() => ({ name: fn, arn: `arn:aws:lambda:standin:000000000000:function:${fn}` })) },
      };
      record<DynamoSubscriptionArgs>('sst.aws.DynamoLambdaSubscriber', componentName, { subscriber, ...args }, instance);
      return new StandinOutput(() => instance);
    }
  }

  class Bucket {
    readonly name: string;
    readonly arn: string;
    readonly domain: string;
    constructor(componentName: string, args: BucketArgs = {}) {
      this.name = physical(stage, componentName);
      this.arn = `arn:aws:s3:::${this.name}`;
      this.domain = `${this.name}.s3.amazonaws.com`;
      record('sst.aws.Bucket', componentName, args, this);
    }
  }

  class Secret {
    readonly name: string;
    /** An Output in SST: the value set for the stage, else the placeholder. */
    readonly value: StandinOutput<string>;
    constructor(name: string, placeholder?: string) {
      this.name = name;
      this.value = new StandinOutput(() => options.secrets?.[name] ?? placeholder ?? `standin-value-of-${name}`);
      record('sst.Secret', name, { placeholder }, this);
    }
  }

  /** SST's Linkable: a name and properties that linked functions read as `Resource.<name>`. */
  class Linkable {
    readonly name: string;
    readonly properties: Record<string, unknown>;
    constructor(name: string, args: LinkableArgs) {
      this.name = name;
      this.properties = args.properties;
      record('sst.Linkable', name, args, this);
    }
  }

  class LambdaFunction {
    readonly name: string;
    readonly arn: string;
    constructor(componentName: string, args: FunctionArgs) {
      this.name = physical(stage, componentName);
      this.arn = `arn:aws:lambda:standin:000000000000:function:${this.name}`;
      record('sst.aws.Function', componentName, args, this);
    }
  }

  /** SST's CronV2 also builds the function (`<name>Handler`); the stand-in records only the cron and its args. */
  class CronV2 {
    /** As SST's: `nodes.function` is an Output of the aws.lambda.Function it builds (named `<name>Handler`). */
    readonly nodes: { function: StandinOutput<{ name: string; arn: string }> };
    constructor(componentName: string, args: CronV2Args) {
      if (!/^(rate|cron|at)\(.+\)$/.test(args.schedule)) throw new Error(`Invalid schedule ${args.schedule} of ${componentName}`);
      if (!args.function) throw new Error(`CronV2 ${componentName} has no function`);
      const name = physical(stage, `${componentName}Handler`);
      this.nodes = { function: new StandinOutput(() => ({ name, arn: `arn:aws:lambda:standin:000000000000:function:${name}` })) };
      record('sst.aws.CronV2', componentName, args, this);
    }
  }

  class Queue {
    readonly arn: string;
    readonly url: string;
    readonly nodes: { queue: { name: string; arn: string; url: string } };
    constructor(componentName: string, args: QueueArgs = {}) {
      const name = physical(stage, componentName);
      this.arn = `arn:aws:sqs:standin:000000000000:${name}`;
      this.url = `https://sqs.standin.amazonaws.com/000000000000/${name}`;
      this.nodes = { queue: { name, arn: this.arn, url: this.url } };
      record('sst.aws.Queue', componentName, args, this);
    }
  }

  class SnsTopic {
    readonly name: string;
    readonly arn: string;
    constructor(componentName: string, args: object = {}) {
      this.name = physical(stage, componentName);
      this.arn = `arn:aws:sns:standin:000000000000:${this.name}`;
      record('sst.aws.SnsTopic', componentName, args, this);
    }
  }

  /** Pulumi resources infra creates directly (the `aws` global SST provides). */
  class MetricAlarm {
    readonly arn: string;
    constructor(name: string, args: MetricAlarmArgs) {
      this.arn = `arn:aws:cloudwatch:standin:000000000000:alarm:${name}`;
      record('aws.cloudwatch.MetricAlarm', name, args, this);
    }
  }

  class TopicSubscription {
    constructor(name: string, args: TopicSubscriptionArgs) {
      if (!['email', 'email-json', 'sms', 'sqs', 'lambda', 'http', 'https', 'firehose', 'application'].includes(args.protocol)) {
        throw new Error(`Invalid protocol ${args.protocol} of ${name}`);
      }
      record('aws.sns.TopicSubscription', name, args, this);
    }
  }

  class ApiGatewayV2 {
    readonly componentName: string;
    readonly url: string;
    /** As SST's: `nodes.api` is the aws.apigatewayv2.Api. */
    readonly nodes: { api: { id: string } };
    constructor(componentName: string, args: ApiGatewayV2Args = {}) {
      this.componentName = componentName;
      this.url = `https://${componentName.toLowerCase()}.execute-api.standin.amazonaws.com`;
      this.nodes = { api: { id: `${componentName.toLowerCase()}-standin-id` } };
      record('sst.aws.ApiGatewayV2', componentName, args, this);
    }

    /** Validates the route as SST's ApiGatewayV2.parseRoute does, and refuses duplicates as API Gateway does. */
    route(rawRoute: string, handler: unknown, args: object = {}) {
      // SST's parseRoute takes `$default` (any case) as API Gateway's catch-all route key.
      if (rawRoute.toLowerCase() === '$default') {
        if (routes.some((r) => r.api === this.componentName && r.method === '$default')) throw new Error(`duplicate route $default on ${this.componentName}`);
        routes.push({ api: this.componentName, method: '$default', path: '$default', handler });
        return { rawRoute: '$default', handler, args };
      }
      const parts = rawRoute.split(' ');
      const [method, path] = parts;
      if (parts.length !== 2 || !method || !path) throw new Error(`Invalid route ${rawRoute}: expected "METHOD /path"`);
      if (!['ANY', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].includes(method)) {
        throw new Error(`Invalid method ${method} in route ${rawRoute}`);
      }
      if (!path.startsWith('/')) throw new Error(`Invalid path ${path} in route ${rawRoute}`);
      if (routes.some((r) => r.api === this.componentName && r.method === method && r.path === path)) {
        throw new Error(`duplicate route ${rawRoute} on ${this.componentName}`);
      }
      routes.push({ api: this.componentName, method, path, handler });
      return { rawRoute, handler, args };
    }
  }

  const sst = strict('sst', {
    aws: strict('sst.aws', { Dynamo, Bucket, Function: LambdaFunction, ApiGatewayV2, CronV2, Queue, SnsTopic }),
    Secret,
    Linkable,
  });
  const aws = strict('aws', {
    cloudwatch: strict('aws.cloudwatch', { MetricAlarm }),
    sns: strict('aws.sns', { TopicSubscription }),
  });
  return { components, routes, sst, aws };
}

/**
 * Refuses a subscription's transform that SST or Lambda would not take for a DynamoDB stream: a transform of
 * something other than the mapping, a mapping argument Pulumi's EventSourceMappingArgs does not have (or that is
 * not for streams), a value out of Lambda's range for DynamoDB Streams.
 */
function checkStreamMapping(name: string, transform: DynamoSubscriptionArgs['transform']) {
  const unknownTransform = Object.keys(transform ?? {}).filter((key) => key !== 'eventSourceMapping');
  if (unknownTransform.length > 0) throw new Error(`subscribe ${name}: SST has no transform ${unknownTransform.join(', ')}`);
  const mapping = (transform?.eventSourceMapping ?? {}) as Record<string, unknown>;
  const streamArgs = [
    'batchSize',
    'bisectBatchOnFunctionError',
    'destinationConfig',
    'enabled',
    'functionResponseTypes',
    'maximumBatchingWindowInSeconds',
    'maximumRecordAgeInSeconds',
    'maximumRetryAttempts',
    'metricsConfig',
    'parallelizationFactor',
    'startingPosition',
    'tumblingWindowInSeconds',
  ];
  const unknownArgs = Object.keys(mapping).filter((key) => !streamArgs.includes(key));
  if (unknownArgs.length > 0) throw new Error(`subscribe ${name}: no event source mapping argument ${unknownArgs.join(', ')} for a stream`);
  const within = (key: string, low: number, high: number) => {
    const value = mapping[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= low && (value as number) <= high)) {
      throw new Error(`subscribe ${name}: ${key} ${String(value)} is not an integer from ${low} to ${high}`);
    }
  };
  within('batchSize', 1, 1_000);
  within('maximumBatchingWindowInSeconds', 0, 300);
  within('maximumRetryAttempts', -1, 10_000);
  within('parallelizationFactor', 1, 10);
  if (mapping.startingPosition !== undefined && !['LATEST', 'TRIM_HORIZON'].includes(mapping.startingPosition as string)) {
    throw new Error(`subscribe ${name}: a DynamoDB stream starts at LATEST or TRIM_HORIZON, not ${String(mapping.startingPosition)}`);
  }
}

/** A namespace that throws on members it lacks, so a component without a stand-in fails with its name. */
function strict<T extends object>(label: string, target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string' && key !== 'then' && !(key in object)) {
        throw new Error(`${label}.${key} has no stand-in: add one to test/support/sst-standins.ts`);
      }
      return Reflect.get(object, key, receiver);
    },
  });
}

const globals = globalThis as Record<string, unknown>;
const installed = ['$config', '$app', '$interpolate', 'sst', 'aws'];

/**
 * Runs sst.config.ts for a stage as `sst deploy` would (app(), then run() with `$app` set), against fresh
 * stand-ins and freshly evaluated infra modules (they create their components when imported).
 */
export async function deployWithStandins(stage: string, options: StandinOptions = {}): Promise<Deployment> {
  vi.resetModules();
  const { components, routes, sst, aws } = recorder(stage, options);
  globals.$config = (config: SstConfig) => config;
  globals.$interpolate = (strings: TemplateStringsArray, ...values: unknown[]) => String.raw({ raw: strings }, ...values);
  globals.sst = sst;
  globals.aws = aws;
  delete globals.$app;
  try {
    const config = ((await import('../../sst.config.js' as string)) as { default: SstConfig }).default;
    const app = await config.app({ stage });
    // SST defaults removal to 'retain' when app() leaves it out.
    globals.$app = { name: app.name, stage, removal: app.removal ?? 'retain', protect: app.protect ?? false };
    const outputs = (await config.run()) ?? {};
    for (const name of options.settle ?? []) {
      const secret = components.find((c) => c.type === 'sst.Secret' && c.name === name);
      if (!secret) throw new Error(`settle: no secret named ${name}`);
      (secret.instance as { value: StandinOutput<string> }).value.settle();
    }
    return { stage, app, outputs, components, routes };
  } finally {
    for (const name of installed) delete globals[name];
  }
}

/**
 * The aws.dynamodb.Table args SST's Dynamo builds (platform/src/components/aws/dynamo.ts), after `transform.table`
 * is applied the way SST's transform() does. Includes SST's own defaults, notably point-in-time recovery on.
 */
export function dynamoTableArgs(args: DynamoArgs): Record<string, unknown> {
  const defaults: Record<string, unknown> = {
    attributes: Object.entries(args.fields).map(([name, type]) => ({
      name,
      type: type === 'string' ? 'S' : type === 'number' ? 'N' : 'B',
    })),
    billingMode: 'PAY_PER_REQUEST',
    hashKey: args.primaryIndex.hashKey,
    rangeKey: args.primaryIndex.rangeKey,
    streamEnabled: Boolean(args.stream),
    streamViewType: args.stream ? args.stream.toUpperCase().replaceAll('-', '_') : undefined,
    pointInTimeRecovery: { enabled: true },
    ttl: args.ttl === undefined ? undefined : { attributeName: args.ttl, enabled: true },
    globalSecondaryIndexes: Object.entries(args.globalIndexes ?? {}).map(([name, index]) => ({
      name,
      hashKey: index.hashKey,
      rangeKey: index.rangeKey,
      projectionType: index.projection === 'keys-only' ? 'KEYS_ONLY' : Array.isArray(index.projection) ? 'INCLUDE' : 'ALL',
      ...(Array.isArray(index.projection) ? { nonKeyAttributes: index.projection } : {}),
    })),
  };
  const transform = args.transform?.table;
  if (typeof transform === 'function') {
    transform(defaults, {}, 'TableTable');
    return defaults;
  }
  return { ...defaults, ...transform };
}
