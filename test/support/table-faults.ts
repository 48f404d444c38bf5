import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Faults injected into a DynamoDB client with SDK middleware, after the SDK's own retries would have run
 * (test/table-faults.test.ts, test/money-faults.test.ts): each fault is what the service or the network really
 * sends back, by name, fault and cancellation reasons.
 */
export const faults: Record<string, () => Error> = {
  'throughput exceeded': () =>
    Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded.'), {
      name: 'ProvisionedThroughputExceededException',
      $fault: 'client',
    }),
  throttled: () => Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $fault: 'client' }),
  'throttled transaction': () =>
    Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError, None]'), {
      name: 'TransactionCanceledException',
      $fault: 'client',
      CancellationReasons: [{ Code: 'ThrottlingError' }, { Code: 'None' }],
    }),
  'transaction conflict': () =>
    Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]'), {
      name: 'TransactionCanceledException',
      $fault: 'client',
      CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
    }),
  'service error': () => Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' }),
  'timed out': () => Object.assign(new Error('Request timed out'), { name: 'TimeoutError' }),
};

/** The commands that write items, by the SDK's command name. */
export const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export interface FaultInjector {
  /**
   * From the `after`-th next command on (0: the very next), `times` commands (all unless told) fail with `fault`;
   * with `command` (a command's name, `TransactWriteItemsCommand`), only commands of that name count and fail.
   */
  arm(fault: () => Error, after: number, times?: number, command?: string): void;
  disarm(): void;
  /** The next write is carried out, and its answer lost on the way back (a timeout). */
  loseNextWriteAnswer(): void;
  /** Commands sent since the last `arm`. */
  sent: number;
}

/** Installs the injector on the client (once per client). */
export function injectFaults(db: DynamoDBDocumentClient): FaultInjector {
  let failing: (() => Error) | undefined;
  let failAfter = 0;
  let failTimes = Infinity;
  let failCommand: string | undefined;
  let loseAnswer = false;
  const injector: FaultInjector = {
    sent: 0,
    arm(fault, after, times = Infinity, command) {
      failing = fault;
      failAfter = after;
      failTimes = times;
      failCommand = command;
      injector.sent = 0;
    },
    disarm() {
      failing = undefined;
    },
    loseNextWriteAnswer() {
      loseAnswer = true;
    },
  };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      injector.sent++;
      const counted = failCommand === undefined || context.commandName === failCommand;
      if (failing && counted && failAfter-- <= 0 && failTimes-- > 0) throw failing();
      const out = await next(args);
      if (loseAnswer && WRITE_COMMANDS.has(context.commandName ?? '')) {
        loseAnswer = false;
        throw faults['timed out']!();
      }
      return out;
    },
    { step: 'initialize', name: 'tableFaults' },
  );
  return injector;
}

/** Runs `run` with `fault` armed from the `after`-th command on (of those named `command`, when given). */
export async function withFault<T>(injector: FaultInjector, fault: () => Error, after: number, run: () => Promise<T>, command?: string): Promise<T> {
  injector.arm(fault, after, Infinity, command);
  try {
    return await run();
  } finally {
    injector.disarm();
  }
}
