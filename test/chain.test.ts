import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainNodeError } from '../core/chain/errors.js';
import { indexEvents, type IndexerOptions } from '../core/chain/indexer.js';
import { cursorKey } from '../core/chain/keys.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { startIndexerLoop } from '../core/chain/loop.js';
import { VendorPaymentEvent } from '../core/chain/models.js';
import {
  coinFromBalanceChanges,
  parsePayment,
  paymentOfBill,
  paymentsOfPayer,
  paymentsOfTransaction,
  storePaymentEvent,
} from '../core/payments/chain-payments.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import type { ChainEvent, ChainSource, EventCursor } from '../core/chain/types.js';
import { mismatches, vendorPaymentEvent as seedShape } from './contract/contract-shapes.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';
import {
  ChainScript,
  PACKAGE,
  PAYMENT_TYPE,
  SUI,
  paymentEvent,
  randomAddress,
  randomDigest,
  startSuiNode,
  type Failure,
  type ScriptEvent,
  type SuiNode,
} from './support/sui-node.js';

/**
 * The chain indexer and the payment records, against a loopback Sui full node (JSON-RPC) and a loopback Sui
 * GraphQL service answering in the real formats, and DynamoDB Local. Short timeouts and a recording sleep
 * keep failure cases fast; a second is still far above what a loopback answer takes beside other test files.
 */
const TIMEOUT_MS = 1_000;
const OTHER_TYPE = `${PACKAGE}::game::ScoreEvent`;

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/**
 * A chain of `count` payment events in chain order: some transactions emit two, some bill numbers are bytes,
 * every event names its coin (our contract's layout), as text or as a TypeName.
 */
function paymentScript(count: number): ChainScript {
  const script = new ChainScript();
  for (let i = 0; i < count; ) {
    const txDigest = randomDigest();
    const inTx = i % 7 === 3 && i + 1 < count ? 2 : 1;
    for (let seq = 0; seq < inTx; seq++, i++) {
      const coin = { coinType: SUI, coinTypeAs: i % 3 === 0 ? ('type_name' as const) : ('string' as const) };
      script.add(paymentEvent({ billNo: `BILL-${i}`, amount: String(1000 + i), txDigest, eventSeq: seq, billNoAsBytes: i % 5 === 0, ...coin }));
    }
    // Events of another type in between: the node filters them out of a type's stream.
    if (i % 20 === 0) script.add({ ...paymentEvent({ billNo: 'not-ours', type: OTHER_TYPE }) });
  }
  return script;
}

const payments = (script: ChainScript) => script.events.filter((e) => e.type === PAYMENT_TYPE);

async function node(script: ChainScript) {
  const server = await startSuiNode(script);
  stops.push(server.stop);
  return server;
}

async function graphqlService(script: ChainScript) {
  const server = await startSuiGraphQL(script);
  stops.push(server.stop);
  return server;
}

/** Deps on a fresh table, with the stage's chain on `server`. */
async function depsOn(server: SuiNode | SuiGraphQL, kind: 'jsonrpc' | 'graphql' = 'jsonrpc'): Promise<TestDeps> {
  const deps = await createTestDeps();
  deps.chain = createChain({ kind, url: server.url, paymentEventType: PAYMENT_TYPE }, { timeoutMs: TIMEOUT_MS });
  return deps;
}

/** A sleep that only records how long it was asked to wait. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const run = (deps: TestDeps, options: Partial<IndexerOptions> = {}) =>
  indexEvents(deps, { handlers: paymentHandlers(deps), sleep: async () => {}, ...options });

/** Every stored payment record. */
const stored = (deps: TestDeps) => itemsOfType(deps, 'payment_event');

async function storedCursor(deps: TestDeps): Promise<EventCursor | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: cursorKey(PAYMENT_TYPE), ConsistentRead: true }));
  return out.Item?.cursor as EventCursor | undefined;
}

const idOf = (event: ScriptEvent) => ({ txDigest: event.txDigest, eventSeq: String(event.eventSeq) });
const billText = (event: ScriptEvent) => {
  const bill = event.parsedJson.bill_no;
  return Array.isArray(bill) ? Buffer.from(bill as number[]).toString('utf8') : (bill as string);
};

/** Expects every payment event of the script stored exactly once, as the contract's record. */
async function expectStoredOnce(deps: TestDeps, events: ScriptEvent[]) {
  const items = await stored(deps);
  const positions = items.map((item) => `${(item.cursor as EventCursor & { txDigest: string }).txDigest}#${(item.cursor as { eventSeq: string }).eventSeq}`);
  expect(new Set(positions).size, 'an event stored twice').toBe(positions.length);
  expect(positions.sort()).toEqual(events.map((e) => `${e.txDigest}#${e.eventSeq}`).sort());
  expect(new Set(items.map((item) => item.id)).size, 'two records share an id').toBe(items.length);
  return items;
}

async function readAll(source: ChainSource, type: string, limit: number) {
  const sizes: number[] = [];
  const events: ChainEvent[] = [];
  let cursor: EventCursor | null = null;
  for (;;) {
    const page = await source.queryEvents(type, cursor, limit);
    sizes.push(page.events.length);
    events.push(...page.events);
    cursor = page.nextCursor;
    if (!page.hasNextPage) return { sizes, events, cursor };
  }
}

describe('chain sources', () => {
  it('JSON-RPC and GraphQL give the same events for the same chain, oldest first, 50 a page', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const gql = await graphqlService(script);
    const fromRpc = await readAll(createChain({ kind: 'jsonrpc', url: rpc.url, paymentEventType: PAYMENT_TYPE }).source, PAYMENT_TYPE, 50);
    const fromGql = await readAll(createChain({ kind: 'graphql', url: gql.url, paymentEventType: PAYMENT_TYPE }).source, PAYMENT_TYPE, 50);

    expect(fromRpc.sizes).toEqual([50, 50, 20]);
    expect(fromGql.sizes).toEqual([50, 50, 20]);
    const expected = payments(script).map((e) => ({
      type: PAYMENT_TYPE,
      txDigest: e.txDigest,
      eventSeq: String(e.eventSeq),
      sender: e.sender,
      parsedJson: e.parsedJson,
      timestampMs: e.timestampMs,
    }));
    expect(fromRpc.events).toEqual(expected);
    // GraphQL renders vector<u8> as Base64; the source turns it back, so bill numbers read alike.
    expect(fromGql.events).toEqual(expected);
    expect(fromRpc.cursor).toEqual(idOf(payments(script).at(-1)!));
    expect(fromGql.cursor).toMatchObject({ graphql: expect.any(String) });

    // The SDK's queryEvents defaults to descending: the source says ascending, so the node got `false`.
    const calls = rpc.calls('suix_queryEvents');
    expect(calls).toHaveLength(3);
    for (const { params } of calls) {
      expect(params[0]).toEqual({ MoveEventType: PAYMENT_TYPE });
      expect(params[2]).toBe(50);
      expect(params[3]).toBe(false);
    }
    expect(gql.queries().map((q) => q.variables.first)).toEqual([50, 50, 50]);
  });

  it('never asks for more than 50 events a page (the node caps, the GraphQL service refuses)', async () => {
    const script = paymentScript(60);
    const rpc = await node(script);
    const gql = await graphqlService(script);
    for (const [kind, url] of [
      ['jsonrpc', rpc.url],
      ['graphql', gql.url],
    ] as const) {
      const source = createChain({ kind, url, paymentEventType: PAYMENT_TYPE }).source;
      expect((await source.queryEvents(PAYMENT_TYPE, null, 100)).events).toHaveLength(50);
    }
    expect(rpc.calls('suix_queryEvents')[0]!.params[2]).toBe(50);
    expect(gql.queries()[0]!.variables.first).toBe(50);
  });

  it('an empty page keeps the cursor it was given', async () => {
    const script = paymentScript(3);
    const rpc = await node(script);
    const source = createChain({ kind: 'jsonrpc', url: rpc.url, paymentEventType: PAYMENT_TYPE }).source;
    const all = await source.queryEvents(PAYMENT_TYPE, null, 50);
    const after = await source.queryEvents(PAYMENT_TYPE, all.nextCursor, 50);
    expect(after).toEqual({ events: [], nextCursor: all.nextCursor, hasNextPage: false });
  });

  it("reads a transaction's events alike from both; undefined for a digest the node does not know", async () => {
    const script = paymentScript(10);
    const txDigest = randomDigest();
    script.add(paymentEvent({ billNo: 'T-1', txDigest, eventSeq: 0 }), paymentEvent({ billNo: 'T-2', txDigest, eventSeq: 1, billNoAsBytes: true }));
    const quiet = randomDigest();
    script.quietTransactions.add(quiet);
    const rpc = await node(script);
    const gql = await graphqlService(script);
    const rpcSource = createChain({ kind: 'jsonrpc', url: rpc.url, paymentEventType: PAYMENT_TYPE }).source;
    const gqlSource = createChain({ kind: 'graphql', url: gql.url, paymentEventType: PAYMENT_TYPE }).source;

    const fromRpc = await rpcSource.transactionEvents(txDigest);
    expect(fromRpc?.map((e) => [e.eventSeq, e.parsedJson.bill_no])).toEqual([
      ['0', 'T-1'],
      ['1', [...Buffer.from('T-2')]],
    ]);
    expect(await gqlSource.transactionEvents(txDigest)).toEqual(fromRpc);
    expect(rpc.calls('sui_getTransactionBlock')[0]!.params).toEqual([txDigest, { showEvents: true }]);

    for (const source of [rpcSource, gqlSource]) {
      expect(await source.transactionEvents(quiet)).toEqual([]);
      expect(await source.transactionEvents(randomDigest())).toBeUndefined();
      // Not a digest at all: no node can know it, and none is asked.
      expect(await source.transactionEvents('not-a-digest')).toBeUndefined();
    }
    expect(rpc.calls('sui_getTransactionBlock')).toHaveLength(3);
  });

  it.each([
    ['jsonrpc', 'error', /Internal error/],
    ['jsonrpc', 'http-503', /503/],
    ['jsonrpc', 'drop', /fetch failed|socket|terminated/i],
    ['jsonrpc', 'hang', new RegExp(`no answer within ${TIMEOUT_MS} ms`)],
    ['graphql', 'error', /Internal error occurred/],
    ['graphql', 'http-503', /503/],
    ['graphql', 'drop', /fetch failed|socket|terminated/i],
    ['graphql', 'hang', new RegExp(`no answer within ${TIMEOUT_MS} ms`)],
  ] as const)('%s: a node answering %s is a ChainNodeError', async (kind, failure, message) => {
    const script = paymentScript(5);
    const server = kind === 'jsonrpc' ? await node(script) : await graphqlService(script);
    const source = createChain({ kind, url: server.url, paymentEventType: PAYMENT_TYPE }, { timeoutMs: TIMEOUT_MS }).source;
    server.failNext(failure as Failure, 2);
    const page = source.queryEvents(PAYMENT_TYPE, null, 50);
    await expect(page).rejects.toBeInstanceOf(ChainNodeError);
    await expect(page).rejects.toThrow(message);
    await expect(source.transactionEvents(script.events[0]!.txDigest)).rejects.toBeInstanceOf(ChainNodeError);
    // The node is fine again: so is the source.
    expect((await source.queryEvents(PAYMENT_TYPE, null, 50)).events).toHaveLength(5);
  });

  it('a GraphQL error in the response is a node error, not an empty page', async () => {
    const gql = await graphqlService(paymentScript(3));
    const source = createChain({ kind: 'graphql', url: gql.url, paymentEventType: PAYMENT_TYPE }).source;
    await expect(source.queryEvents(PAYMENT_TYPE, { graphql: 'not-a-cursor' }, 10)).rejects.toThrow(/events: .*invalid cursor/);
  });
});

describe('indexer', () => {
  it('reads 120 events in 3 pages of 50/50/20, stores each once as the compatibility contract record, and resumes after the last', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const deps = await depsOn(rpc);

    expect(await run(deps)).toEqual({ [PAYMENT_TYPE]: { pages: 3, events: 120, errors: 0, stopped: 'caught-up' } });
    const items = await expectStoredOnce(deps, payments(script));
    const events = payments(script);
    const byPosition = new Map(events.map((e) => [`${e.txDigest}#${e.eventSeq}`, e]));
    for (const item of items) {
      const record = VendorPaymentEvent.parse(item);
      const event = byPosition.get(`${record.cursor.txDigest}#${record.cursor.eventSeq}`)!;
      expect(mismatches(record, seedShape)).toEqual([]);
      expect(record).toMatchObject({
        bill_no: billText(event),
        amount: event.parsedJson.amount,
        fromer: event.parsedJson.from,
        toer: event.parsedJson.to,
        event_type: 1,
      });
      expect(Object.keys(record).sort()).toEqual(['amount', 'bill_no', 'created_at', 'cursor', 'event_type', 'fromer', 'id', 'toer', 'updated_at']);
      expect(Number.isInteger(record.id)).toBe(true);
      expect(new Date(record.created_at).toISOString()).toBe(record.created_at);
    }

    const calls = rpc.calls('suix_queryEvents');
    expect(calls.map((c) => c.params[1])).toEqual([null, idOf(events[49]!), idOf(events[99]!)]);
    expect(calls.every((c) => c.params[2] === 50 && c.params[3] === false)).toBe(true);
    expect(await storedCursor(deps)).toEqual(idOf(events[119]!));

    // A second run asks once, from the saved cursor, and stores nothing.
    expect(await run(deps)).toEqual({ [PAYMENT_TYPE]: { pages: 1, events: 0, errors: 0, stopped: 'caught-up' } });
    expect(rpc.calls('suix_queryEvents').at(-1)!.params[1]).toEqual(idOf(events[119]!));
    await expectStoredOnce(deps, events);

    // New events on chain: the next run picks up exactly those.
    const later = [paymentEvent({ billNo: 'LATER-1' }), paymentEvent({ billNo: 'LATER-2' })];
    script.add(...later);
    expect((await run(deps))[PAYMENT_TYPE]).toMatchObject({ pages: 1, events: 2 });
    await expectStoredOnce(deps, payments(script));
  });

  it('after a crash mid-page reads that page again and stores nothing twice', async () => {
    const script = paymentScript(120);
    const deps = await depsOn(await node(script));
    let calls = 0;
    let crashed = false;
    const crashing: IndexerOptions['handlers'] = {
      [PAYMENT_TYPE]: async (d, event) => {
        calls++;
        if (calls === 70 && !crashed) {
          crashed = true;
          throw new Error('simulated crash');
        }
        await storePaymentEvent(d, event);
      },
    };

    expect(await run(deps, { handlers: crashing })).toEqual({ [PAYMENT_TYPE]: { pages: 2, events: 69, errors: 1, stopped: 'handler-error' } });
    expect((await stored(deps)).length).toBe(69);
    // The cursor stayed at the end of the last whole page.
    expect(await storedCursor(deps)).toEqual(idOf(payments(script)[49]!));
    const before = new Map((await stored(deps)).map((item) => [item.sk, item.id]));

    expect(await run(deps, { handlers: crashing })).toEqual({ [PAYMENT_TYPE]: { pages: 2, events: 70, errors: 0, stopped: 'caught-up' } });
    const items = await expectStoredOnce(deps, payments(script));
    // The records stored before the crash are the ones kept (same ids).
    for (const item of items) if (before.has(item.sk)) expect(item.id).toBe(before.get(item.sk));
  });

  it('backs off exponentially on a node failing mid-way, keeps its place, and the next run resumes there', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const deps = await depsOn(rpc);
    // The second page fails at every attempt, each a different way.
    rpc.failAt(2, 'error');
    rpc.failAt(3, 'http-503');
    rpc.failAt(4, 'drop');
    rpc.failAt(5, 'hang');
    const { waits, sleep } = recordingSleep();

    expect(await run(deps, { sleep })).toEqual({ [PAYMENT_TYPE]: { pages: 1, events: 50, errors: 4, stopped: 'node-error' } });
    expect(waits).toEqual([500, 1000, 2000]);
    expect(await storedCursor(deps)).toEqual(idOf(payments(script)[49]!));
    expect((await stored(deps)).length).toBe(50);

    expect(await run(deps, { sleep })).toEqual({ [PAYMENT_TYPE]: { pages: 2, events: 70, errors: 0, stopped: 'caught-up' } });
    expect(rpc.calls('suix_queryEvents')[5]!.params[1]).toEqual(idOf(payments(script)[49]!));
    await expectStoredOnce(deps, payments(script));
  });

  it('retries a page that timed out within the same run', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const deps = await depsOn(rpc);
    rpc.failAt(2, 'hang');
    const { waits, sleep } = recordingSleep();
    expect(await run(deps, { sleep })).toEqual({ [PAYMENT_TYPE]: { pages: 3, events: 120, errors: 1, stopped: 'caught-up' } });
    expect(waits).toEqual([500]);
    // The retry asked for the same page again.
    const cursors = rpc.calls('suix_queryEvents').map((c) => c.params[1]);
    expect(cursors[1]).toEqual(cursors[2]);
    await expectStoredOnce(deps, payments(script));
  });

  it('stops before the deadline and after maxPages, leaving the cursor where the work ended', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const deps = await depsOn(rpc);
    expect(await run(deps, { deadline: Date.now() - 1 })).toEqual({ [PAYMENT_TYPE]: { pages: 0, events: 0, errors: 0, stopped: 'deadline' } });
    expect(rpc.requests).toHaveLength(0);
    expect(await run(deps, { maxPages: 1 })).toEqual({ [PAYMENT_TYPE]: { pages: 1, events: 50, errors: 0, stopped: 'max-pages' } });
    expect(await storedCursor(deps)).toEqual(idOf(payments(script)[49]!));
    // A retry that would end after the deadline is not waited for: the first read is made well before the deadline,
    // and the pause after it would end well after it, however slow the machine.
    rpc.failNext('error');
    expect((await run(deps, { deadline: Date.now() + 30_000, backoffMs: 60_000 }))[PAYMENT_TYPE]).toMatchObject({ errors: 1, stopped: 'deadline' });
  });

  it('two runs in parallel store each event once', async () => {
    const script = paymentScript(120);
    const deps = await depsOn(await node(script));
    const [first, second] = await Promise.all([run(deps), run(deps)]);
    // Both read page 1 at once; whichever saves its cursor second leaves the rest to the other.
    expect([first![PAYMENT_TYPE]!.stopped, second![PAYMENT_TYPE]!.stopped].sort()).toEqual(['caught-up', 'overtaken']);
    await expectStoredOnce(deps, payments(script));
    expect(await storedCursor(deps)).toEqual(idOf(payments(script)[119]!));
    expect((await run(deps))[PAYMENT_TYPE]).toMatchObject({ events: 0 });
  });

  it('indexes alike through GraphQL, keeping its cursor as {graphql}; switching source kind re-reads without storing twice', async () => {
    const script = paymentScript(120);
    const rpc = await node(script);
    const gql = await graphqlService(script);
    const deps = await depsOn(gql, 'graphql');

    expect(await run(deps)).toEqual({ [PAYMENT_TYPE]: { pages: 3, events: 120, errors: 0, stopped: 'caught-up' } });
    const viaGraphQL = await expectStoredOnce(deps, payments(script));
    expect(await storedCursor(deps)).toMatchObject({ graphql: expect.any(String) });
    expect(gql.queries().map((q) => q.variables.type)).toEqual([PAYMENT_TYPE, PAYMENT_TYPE, PAYMENT_TYPE]);
    expect((await run(deps))[PAYMENT_TYPE]).toMatchObject({ pages: 1, events: 0 });

    // The stage moves to JSON-RPC: the GraphQL cursor means nothing there, so the stream is read again, and
    // every event lands on the record it already has.
    deps.chain = createChain({ kind: 'jsonrpc', url: rpc.url, paymentEventType: PAYMENT_TYPE }, { timeoutMs: TIMEOUT_MS });
    expect(await run(deps)).toEqual({ [PAYMENT_TYPE]: { pages: 3, events: 120, errors: 0, stopped: 'caught-up' } });
    const after = await expectStoredOnce(deps, payments(script));
    expect(after.map((i) => i.id).sort()).toEqual(viaGraphQL.map((i) => i.id).sort());
    expect(await storedCursor(deps)).toEqual(idOf(payments(script)[119]!));
  });

  it('skips a malformed payment event without stopping, and moves past it', async () => {
    const script = paymentScript(10);
    const bad = paymentEvent({ billNo: 'BAD' });
    bad.parsedJson.amount = 'a lot';
    script.events.splice(4, 0, bad);
    const deps = await depsOn(await node(script));
    expect(await run(deps)).toEqual({ [PAYMENT_TYPE]: { pages: 1, events: 11, errors: 0, stopped: 'caught-up' } });
    await expectStoredOnce(
      deps,
      payments(script).filter((e) => e !== bad),
    );
    expect(await storedCursor(deps)).toEqual(idOf(payments(script).at(-1)!));
  });

  it('does nothing without a chain, and handles no types without handlers', async () => {
    const deps = await createTestDeps();
    expect(paymentHandlers(deps)).toEqual({});
    expect(await indexEvents(deps, { handlers: {} })).toEqual({});
  });

  it('runs as a loop until stopped (the local server)', async () => {
    const script = paymentScript(60);
    const deps = await depsOn(await node(script));
    const passes: unknown[] = [];
    const loop = startIndexerLoop(deps, { intervalMs: 20, handlers: paymentHandlers(deps), onPass: (summary) => passes.push(summary) });
    try {
      await expect.poll(async () => (await stored(deps)).length, { timeout: 10_000 }).toBe(60);
      script.add(paymentEvent({ billNo: 'LOOP-LATE' }));
      await expect.poll(async () => (await stored(deps)).length, { timeout: 10_000 }).toBe(61);
    } finally {
      await loop.stop();
    }
    expect(passes.length).toBeGreaterThanOrEqual(2);
    const count = passes.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(passes).toHaveLength(count);
  });
});

describe('payment records', () => {
  const event = (parsedJson: Record<string, unknown>, eventSeq = '0'): ChainEvent => ({
    type: PAYMENT_TYPE,
    txDigest: randomDigest(),
    eventSeq,
    sender: randomAddress(),
    parsedJson,
  });

  it('parsePayment reads bill_no as text or UTF-8 bytes and normalises amount and addresses', () => {
    const to = randomAddress();
    expect(parsePayment(event({ bill_no: [...Buffer.from('订单-42', 'utf8')], amount: 25, from: '0x2', to: to.toUpperCase().replace('0X', '0x') }))).toEqual({
      billNo: '订单-42',
      amount: '25',
      from: `0x${'0'.repeat(63)}2`,
      to,
    });
    expect(parsePayment(event({ bill_no: 'B-1', amount: '18446744073709551615', from: to, to }))).toMatchObject({ amount: '18446744073709551615' });
    expect(parsePayment(event({ bill_no: 'B-1', amount: '007', from: to, to }))).toMatchObject({ amount: '7' });
  });

  it.each([
    ['no bill_no', { amount: '1', from: '0x1', to: '0x2' }],
    ['an empty bill_no', { bill_no: '', amount: '1', from: '0x1', to: '0x2' }],
    ['bill_no bytes that are not UTF-8', { bill_no: [0xff, 0xfe], amount: '1', from: '0x1', to: '0x2' }],
    ['bill_no bytes out of range', { bill_no: [300], amount: '1', from: '0x1', to: '0x2' }],
    ['a bill_no of 129 characters', { bill_no: 'x'.repeat(129), amount: '1', from: '0x1', to: '0x2' }],
    ['an amount that is not a u64', { bill_no: 'B', amount: '18446744073709551616', from: '0x1', to: '0x2' }],
    ['a negative amount', { bill_no: 'B', amount: -1, from: '0x1', to: '0x2' }],
    ['a fractional amount', { bill_no: 'B', amount: '1.5', from: '0x1', to: '0x2' }],
    ['a from that is not an address', { bill_no: 'B', amount: '1', from: 'alice', to: '0x2' }],
    ['no to', { bill_no: 'B', amount: '1', from: '0x1' }],
  ])('parsePayment refuses an event with %s (undefined, never a throw)', (_case, parsedJson) => {
    expect(parsePayment(event(parsedJson))).toBeUndefined();
  });

  it('storePaymentEvent skips a malformed event and stores a good one once, returning the stored record again', async () => {
    const deps = await createTestDeps();
    expect(await storePaymentEvent(deps, event({ bill_no: 'B', amount: 'x', from: '0x1', to: '0x2' }))).toBeUndefined();
    const good = event({ bill_no: 'B-9', amount: '7', from: '0x1', to: '0x2' });
    const first = await storePaymentEvent(deps, good);
    deps.setNow(new Date(Date.now() + 60_000));
    const again = await storePaymentEvent(deps, good, 1);
    deps.setNow(undefined);
    expect(again).toEqual(first);
    expect(await stored(deps)).toHaveLength(1);
    const reward = await storePaymentEvent(deps, event({ bill_no: 'R-1', amount: '7', from: '0x1', to: '0x2' }), 2);
    expect(reward?.event_type).toBe(2);
  });

  it('paymentsOfTransaction falls back to the node for a transaction not yet indexed, and stores what it read', async () => {
    const script = paymentScript(5);
    const txDigest = randomDigest();
    const tx = [
      paymentEvent({ billNo: 'FB-1', txDigest, eventSeq: 0, coinType: SUI, coinTypeAs: 'string' }),
      { ...paymentEvent({ billNo: 'other', txDigest, type: OTHER_TYPE }), eventSeq: 1 },
      paymentEvent({ billNo: 'FB-2', txDigest, eventSeq: 2, billNoAsBytes: true, coinType: SUI, coinTypeAs: 'type_name' }),
    ];
    script.add(...tx);
    const rpc = await node(script);
    const deps = await depsOn(rpc);

    const records = await paymentsOfTransaction(deps, txDigest);
    expect(records.map((r) => [r.bill_no, r.cursor])).toEqual([
      ['FB-1', { txDigest, eventSeq: '0' }],
      ['FB-2', { txDigest, eventSeq: '2' }],
    ]);
    expect(rpc.calls('sui_getTransactionBlock').map((c) => c.params)).toEqual([[txDigest, { showEvents: true }]]);

    // Now it is stored: the table answers, the node is not asked again.
    expect(await paymentsOfTransaction(deps, txDigest)).toEqual(records);
    expect(rpc.calls('sui_getTransactionBlock')).toHaveLength(1);

    // The indexer reaching the same events later keeps the records the fallback stored.
    await run(deps);
    await expectStoredOnce(deps, payments(script));
    expect(await paymentsOfTransaction(deps, txDigest)).toEqual(records);
  });

  it('paymentsOfTransaction: [] for a transaction nobody knows or without a chain; 503 when the node fails', async () => {
    const rpc = await node(paymentScript(1));
    const deps = await depsOn(rpc);
    expect(await paymentsOfTransaction(deps, randomDigest())).toEqual([]);
    expect(await paymentsOfTransaction(await createTestDeps(), randomDigest())).toEqual([]);
    rpc.failNext('http-503');
    await expect(paymentsOfTransaction(deps, randomDigest())).rejects.toMatchObject({ kind: 'Unavailable', message: expect.stringMatching(/^transactionId/) });
  });

  it('paymentOfBill answers the earliest payment on chain of a bill, in one Query', async () => {
    const deps = await createTestDeps();
    const from = randomAddress();
    const at = (ms: number, seq = '0'): ChainEvent => ({ ...event({ bill_no: 'SAME', amount: String(ms), from, to: from }, seq), timestampMs: String(ms) });
    // Stored in another order than they happened on chain.
    await storePaymentEvent(deps, at(Date.UTC(2026, 1, 3)));
    await storePaymentEvent(deps, at(Date.UTC(2026, 1, 1)));
    await storePaymentEvent(deps, at(Date.UTC(2026, 1, 2)));
    expect((await paymentOfBill(deps, 'SAME'))?.amount).toBe(String(Date.UTC(2026, 1, 1)));
    expect(await paymentOfBill(deps, 'NONE')).toBeUndefined();
  });

  it("paymentsOfPayer pages a payer's records newest first, with the total", async () => {
    const deps = await createTestDeps();
    const payer = randomAddress();
    const start = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 5; i++) {
      deps.setNow(new Date(start + i * 1000));
      await storePaymentEvent(deps, event({ bill_no: `P-${i}`, amount: '1', from: payer, to: randomAddress() }));
    }
    await storePaymentEvent(deps, event({ bill_no: 'someone-else', amount: '1', from: randomAddress(), to: payer }));
    deps.setNow(undefined);

    const first = await paymentsOfPayer(deps, payer.toUpperCase().replace('0X', '0x'), 0, 2);
    expect(first.total).toBe(5);
    expect(first.records.map((r) => r.bill_no)).toEqual(['P-4', 'P-3']);
    expect((await paymentsOfPayer(deps, payer, 2, 2)).records.map((r) => r.bill_no)).toEqual(['P-0']);
    expect(await paymentsOfPayer(deps, randomAddress(), 0, 20)).toEqual({ records: [], total: 0 });
  });
});

describe('payment coin types: the coin of every payment is verified', () => {
  const FAKE = `0x${'fa'.repeat(32)}::fake::FAKE`;
  const FULL_SUI = `0x${'0'.repeat(63)}2::sui::SUI`;

  it("reads a transaction's balance changes alike from JSON-RPC and GraphQL, in full form; undefined for an unknown digest", async () => {
    const script = new ChainScript();
    const payer = randomAddress();
    const to = randomAddress();
    const event = script.pay({
      billNo: 'BC-1',
      amount: '250',
      from: payer,
      to,
      coinType: FAKE,
      emit: false,
      extra: [{ owner: to, coinType: SUI, amount: '7' }],
    });
    const rpc = await node(script);
    const gql = await graphqlService(script);
    const rpcSource = createChain({ kind: 'jsonrpc', url: rpc.url, paymentEventType: PAYMENT_TYPE }).source;
    const gqlSource = createChain({ kind: 'graphql', url: gql.url, paymentEventType: PAYMENT_TYPE }).source;

    const fromRpc = await rpcSource.balanceChanges(event.txDigest);
    expect(fromRpc).toEqual([
      { owner: payer, coinType: FAKE, amount: '-250' },
      { owner: to, coinType: FAKE, amount: '250' },
      { owner: payer, coinType: FULL_SUI, amount: '-1997880' },
      { owner: to, coinType: FULL_SUI, amount: '7' },
    ]);
    expect(await gqlSource.balanceChanges(event.txDigest)).toEqual(fromRpc);
    // The node was asked for balance changes only, and rendered SUI short as real nodes do.
    expect(rpc.calls('sui_getTransactionBlock')[0]!.params).toEqual([event.txDigest, { showBalanceChanges: true }]);
    expect(gql.queries()[0]!.query).toMatch(/balanceChanges\(first: \$first, after: \$after\)/);

    for (const source of [rpcSource, gqlSource]) {
      expect(await source.balanceChanges(randomDigest())).toBeUndefined();
      expect(await source.balanceChanges('not-a-digest')).toBeUndefined();
    }
    rpc.failNext('http-503');
    await expect(rpcSource.balanceChanges(event.txDigest)).rejects.toBeInstanceOf(ChainNodeError);
    gql.failNext('error');
    await expect(gqlSource.balanceChanges(event.txDigest)).rejects.toBeInstanceOf(ChainNodeError);
  });

  it('parsePayment reads coin_type as text, as type_name renders it, or as a TypeName; anything else is a problem, not a coin', () => {
    const base = { bill_no: 'C-1', amount: '1', from: '0x1', to: '0x2' };
    const read = (coin_type: unknown) =>
      parsePayment({ type: PAYMENT_TYPE, txDigest: randomDigest(), eventSeq: '0', sender: '0x1', parsedJson: { ...base, coin_type } });
    expect(read('0x2::sui::SUI')).toMatchObject({ coinType: FULL_SUI });
    expect(read(`${'0'.repeat(63)}2::sui::SUI`)).toMatchObject({ coinType: FULL_SUI });
    expect(read({ name: `${'fa'.repeat(32)}::fake::FAKE` })).toMatchObject({ coinType: FAKE });
    expect(read(`0x2::coin::Coin<${'0'.repeat(63)}2::sui::SUI>`)).toMatchObject({ coinType: `0x${'0'.repeat(63)}2::coin::Coin<${FULL_SUI}>` });
    expect(read(undefined)).not.toHaveProperty('coinType');
    for (const bad of ['SUI', 42, { name: 7 }, ['0x2::sui::SUI']]) {
      expect(read(bad)).toMatchObject({ coinProblem: expect.stringMatching(/^coin_type/) });
      expect(read(bad)).not.toHaveProperty('coinType');
    }
  });

  it('coinFromBalanceChanges: the one coin of which the receiver gained the amount; none or several leave it unknown', () => {
    const to = randomAddress();
    const payer = randomAddress();
    const change = (owner: string, coinType: string, amount: string) => ({ owner, coinType, amount });
    expect(coinFromBalanceChanges([change(payer, FAKE, '-10'), change(to, FAKE, '10'), change(payer, FULL_SUI, '-3')], to, '10')).toEqual({ coinType: FAKE });
    // Gas paid by the receiver itself does not count as a coin it gained.
    expect(coinFromBalanceChanges([change(to, FULL_SUI, '-3'), change(to, FAKE, '10')], to, '10')).toEqual({ coinType: FAKE });
    expect(coinFromBalanceChanges([change(to, FAKE, '9')], to, '10')).toMatchObject({ problem: expect.stringMatching(/no coin/) });
    expect(coinFromBalanceChanges([change(payer, FAKE, '10')], to, '10')).toMatchObject({ problem: expect.stringMatching(/no coin/) });
    expect(coinFromBalanceChanges([change(to, FAKE, '10'), change(to, FULL_SUI, '10')], to, '10')).toMatchObject({
      problem: expect.stringMatching(/several coins/),
    });
  });

  it('the indexer stores the coin from the event, else from the balance changes; a node failing on them keeps the page for the next run', async () => {
    const script = new ChainScript();
    const emitted = script.pay({ billNo: 'COIN-EVENT', coinType: FAKE, emit: 'type_name' });
    const silent = script.pay({ billNo: 'COIN-SILENT', coinType: SUI, emit: false });
    const rpc = await node(script);
    const deps = await depsOn(rpc);
    // Call 1 reads the page; call 2 is the silent payment's balance changes: it fails, so the run stops there.
    rpc.failAt(2, 'http-503');
    expect((await run(deps))[PAYMENT_TYPE]).toMatchObject({ events: 1, errors: 1, stopped: 'handler-error' });
    expect(await storedCursor(deps)).toBeUndefined();

    expect((await run(deps))[PAYMENT_TYPE]).toMatchObject({ events: 2, errors: 0, stopped: 'caught-up' });
    const items = await expectStoredOnce(deps, [emitted, silent]);
    const byBill = new Map(items.map((item) => [item.bill_no, item]));
    expect(byBill.get('COIN-EVENT')).toMatchObject({ coin_type: FAKE, coin_from: 'event' });
    expect(byBill.get('COIN-SILENT')).toMatchObject({ coin_type: FULL_SUI, coin_from: 'balance_changes' });
    // The event named its coin: the node was asked for balance changes only for the silent one.
    expect(rpc.calls('sui_getTransactionBlock').map((c) => c.params[0])).toEqual([silent.txDigest, silent.txDigest]);
    // Neither names an order: both are kept as stranded payments, none dropped.
    expect((await itemsOfType(deps, 'stranded_payment')).map((item) => item.reason)).toEqual(['no_order', 'no_order']);
  });
});

describe('chain configuration', () => {
  it('is off when unset or blank', () => {
    expect(parseChainConfig(undefined)).toBeUndefined();
    expect(parseChainConfig('')).toBeUndefined();
    expect(parseChainConfig('  ')).toBeUndefined();
  });

  it('reads a configuration, writing the event type in full', () => {
    expect(
      parseChainConfig(
        JSON.stringify({
          kind: 'graphql',
          url: 'https://graphql.testnet.sui.io/graphql',
          paymentEventType: '0xAB::pay::PaymentEvent',
          paymentFunction: '0xab::pay::pay',
        }),
      ),
    ).toEqual({
      kind: 'graphql',
      url: 'https://graphql.testnet.sui.io/graphql',
      paymentEventType: `0x${'0'.repeat(62)}ab::pay::PaymentEvent`,
      paymentFunction: '0xab::pay::pay',
    });
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /expected a JSON object/],
    [JSON.stringify({ kind: 'grpc', url: 'https://x', paymentEventType: PAYMENT_TYPE }), /^chain config: kind/],
    [JSON.stringify({ kind: 'jsonrpc', url: 'ftp://x', paymentEventType: PAYMENT_TYPE }), /^chain config: url/],
    [JSON.stringify({ kind: 'jsonrpc', url: 'https://x' }), /^chain config: paymentEventType/],
    [JSON.stringify({ kind: 'jsonrpc', url: 'https://x', paymentEventType: 'PaymentEvent' }), /^chain config: paymentEventType/],
    [JSON.stringify({ kind: 'jsonrpc', url: 'https://x', paymentEventType: PAYMENT_TYPE, paymentFunction: 3 }), /^chain config: paymentFunction/],
  ])('refuses %s, naming the field', (json, message) => {
    expect(() => parseChainConfig(json)).toThrow(message);
  });
});
