import { SuiGrpcClient } from '@mysten/sui/grpc';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainNodeError } from '../core/chain/errors.js';
import { grpcReads } from '../core/chain/grpc.js';
import { networkOf } from '../core/chain/names.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import type { ChainReads } from '../core/chain/types.js';
import { HERO_TYPE, heroNft } from './support/heroes.js';
import { startSuiGrpc, type SuiGrpc } from './support/sui-grpc.js';
import { ChainScript, PAYMENT_TYPE, paymentEvent, randomAddress, randomDigest, type Failure, type ScriptObject } from './support/sui-node.js';

/**
 * ChainReads over gRPC (core/chain/grpc.ts, through @mysten/sui's SuiGrpcClient) against a loopback full node
 * speaking gRPC-web with the protobuf messages the SDK ships (test/support/sui-grpc.ts): the reads the hero
 * game's NFT checks make (an object's owner, type and fields) and a transaction's events.
 */
const TIMEOUT_MS = 300;
const KIOSK = `0x${'c1'.repeat(32)}`;

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function fullNode(script = new ChainScript()): Promise<{ node: SuiGrpc; reads: ChainReads }> {
  const node = await startSuiGrpc(script);
  stops.push(node.stop);
  return { node, reads: grpcReads(node.url, { timeoutMs: TIMEOUT_MS }) };
}

/** A hero NFT owned by `owner` (test/support/heroes.ts: on-chain level 7, dna bytes 1 2 3 250). */
const hero = (owner: ScriptObject['owner'] | string) => heroNft(owner);

describe('gRPC object reads (the hero NFTs)', () => {
  it("reads a live object's owner, type in full, version and fields as the node renders them", async () => {
    const player = randomAddress();
    const nft = hero(player);
    const { node, reads } = await fullNode(new ChainScript().putObject({ ...nft, version: 41 }));

    expect(await reads.object(nft.objectId)).toEqual({
      objectId: nft.objectId,
      version: '41',
      type: HERO_TYPE,
      owner: { kind: 'address', address: player },
      // u64 as text; a byte vector as Base64, as gRPC renders it.
      fields: { id: nft.objectId, name: 'Arthas', level: '7', dna: Buffer.from([1, 2, 3, 250]).toString('base64') },
    });
    // One BatchGetObjects asking for the object's json (the node sends only the fields a read mask names).
    const [call] = node.calls('BatchGetObjects');
    expect(call!.request.requests).toEqual([{ objectId: nft.objectId }]);
    expect(String(call!.request.readMask).split(',')).toEqual(expect.arrayContaining(['owner', 'objectType', 'json']));
  });

  it('writes the type in full and accepts a short or upper-case id', async () => {
    const nft = { ...hero(randomAddress()), objectId: `0x${'0'.repeat(62)}ab`, type: '0xAB::hero::Hero' };
    const { reads } = await fullNode(new ChainScript().putObject(nft));
    const read = await reads.object('0xAB');
    expect(read?.objectId).toBe(nft.objectId);
    expect(read?.type).toBe(`0x${'0'.repeat(62)}ab::hero::Hero`);
  });

  it('names the owner: another object (a kiosk), shared, immutable, a consensus-managed address', async () => {
    const player = randomAddress();
    const inKiosk = hero({ kind: 'OBJECT', address: KIOSK });
    const shared = hero({ kind: 'SHARED' });
    const frozen = hero({ kind: 'IMMUTABLE' });
    const consensus = hero({ kind: 'CONSENSUS_ADDRESS', address: player });
    const script = new ChainScript().putObject(inKiosk).putObject(shared).putObject(frozen).putObject(consensus);
    const { reads } = await fullNode(script);

    expect((await reads.object(inKiosk.objectId))?.owner).toEqual({ kind: 'object', objectId: KIOSK });
    expect((await reads.object(shared.objectId))?.owner).toEqual({ kind: 'shared' });
    expect((await reads.object(frozen.objectId))?.owner).toEqual({ kind: 'immutable' });
    expect((await reads.object(consensus.objectId))?.owner).toEqual({ kind: 'address', address: player });
  });

  it('answers undefined for an object deleted or wrapped, and reads it again once unwrapped, at its new version', async () => {
    const burnt = hero(randomAddress());
    const wrapped = hero(randomAddress());
    const script = new ChainScript().putObject(burnt).putObject(wrapped);
    const { node, reads } = await fullNode(script);
    expect(await reads.object(burnt.objectId)).toBeDefined();

    script.removeObject(burnt.objectId, 'deleted').removeObject(wrapped.objectId, 'wrapped');
    expect(await reads.object(burnt.objectId)).toBeUndefined();
    expect(await reads.object(wrapped.objectId)).toBeUndefined();

    const owner = randomAddress();
    script.putObject({ ...wrapped, owner: { kind: 'ADDRESS', address: owner }, version: 9 });
    expect(await reads.object(wrapped.objectId)).toMatchObject({ version: '9', owner: { kind: 'address', address: owner } });
    expect(node.calls('BatchGetObjects')).toHaveLength(4);
  });

  it('answers undefined for an id the node never knew, and for a text that is no id without asking', async () => {
    const { node, reads } = await fullNode();
    expect(await reads.object(randomAddress())).toBeUndefined();
    expect(await reads.object('hero-1')).toBeUndefined();
    expect(await reads.object(`0x${'1'.repeat(65)}`)).toBeUndefined();
    expect(node.requests).toHaveLength(1);
  });
});

describe('the loopback full node', () => {
  it('speaks both gRPC-web formats: Base64 text (the SDK default, used above) and binary frames', async () => {
    const nft = hero(randomAddress());
    const { node } = await fullNode(new ChainScript().putObject(nft));
    const binary = new SuiGrpcClient({ baseUrl: node.url, network: 'localnet', format: 'binary' });
    const { object } = await binary.getObject({ objectId: nft.objectId, include: { json: true } });
    expect(object).toMatchObject({ objectId: nft.objectId, type: HERO_TYPE, json: { level: '7' } });
  });
});

describe("gRPC transaction reads (a transaction's events)", () => {
  it('reads the events in order, with their place as eventSeq and the time of the checkpoint', async () => {
    const txDigest = randomDigest();
    const first = paymentEvent({ billNo: 'BILL-G1', txDigest, eventSeq: 0 });
    const second = paymentEvent({ billNo: 'BILL-G2', txDigest, eventSeq: 1, billNoAsBytes: true });
    const { node, reads } = await fullNode(new ChainScript().add(first, second));

    const events = await reads.transactionEvents(txDigest);
    expect(events).toEqual([
      { type: PAYMENT_TYPE, txDigest, eventSeq: '0', sender: first.sender, parsedJson: first.parsedJson, timestampMs: first.timestampMs },
      {
        type: PAYMENT_TYPE,
        txDigest,
        eventSeq: '1',
        sender: second.sender,
        // gRPC has no layout beside the JSON: a vector<u8> stays Base64 text (why the source reads payments).
        parsedJson: { ...second.parsedJson, bill_no: Buffer.from('BILL-G2').toString('base64') },
        timestampMs: first.timestampMs,
      },
    ]);
    expect(node.calls('GetTransaction').map((c) => c.request.digest)).toEqual([txDigest]);
  });

  it('answers [] for a transaction without events, undefined for one the node does not know or a malformed digest', async () => {
    const quiet = randomDigest();
    const script = new ChainScript();
    script.quietTransactions.add(quiet);
    const { node, reads } = await fullNode(script);
    expect(await reads.transactionEvents(quiet)).toEqual([]);
    expect(await reads.transactionEvents(randomDigest())).toBeUndefined();
    expect(await reads.transactionEvents('not-a-digest')).toBeUndefined();
    expect(node.requests).toHaveLength(2);
  });
});

describe('gRPC node failures', () => {
  it.each<[Failure, RegExp]>([
    ['error', /^BatchGetObjects: Internal error/],
    ['http-503', /^BatchGetObjects: Service Unavailable/],
    ['drop', /^BatchGetObjects: fetch failed/],
    ['hang', new RegExp(`^BatchGetObjects: no answer within ${TIMEOUT_MS} ms`)],
  ])('an object read the node fails (%s) is a ChainNodeError, and the next read succeeds', async (failure, message) => {
    const nft = hero(randomAddress());
    const { node, reads } = await fullNode(new ChainScript().putObject(nft));
    node.failNext(failure);
    const error = await reads.object(nft.objectId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainNodeError);
    expect((error as Error).message).toMatch(message);
    expect((await reads.object(nft.objectId))?.objectId).toBe(nft.objectId);
  });

  it('a transaction read the node fails is a ChainNodeError', async () => {
    const event = paymentEvent({ billNo: 'BILL-F' });
    const { node, reads } = await fullNode(new ChainScript().add(event));
    node.failNext('error');
    await expect(reads.transactionEvents(event.txDigest)).rejects.toThrow(ChainNodeError);
  });

  it('a node that is not there (connection refused) is a ChainNodeError, what request paths answer 503 for', async () => {
    const { node, reads } = await fullNode();
    await node.stop();
    stops.length = 0;
    const error = await reads.object(randomAddress()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainNodeError);
    expect((error as Error).message).toMatch(/^BatchGetObjects: fetch failed/);
    await expect(reads.transactionEvents(randomDigest())).rejects.toThrow(ChainNodeError);
  });
});

describe('chain configuration: GraphQL by default, gRPC reads when grpcUrl is set', () => {
  const base = { url: 'https://graphql.testnet.sui.io/graphql', paymentEventType: PAYMENT_TYPE };

  it('a setting without kind reads from GraphQL; one naming jsonrpc keeps JSON-RPC', () => {
    expect(parseChainConfig(JSON.stringify(base))?.kind).toBe('graphql');
    expect(parseChainConfig(JSON.stringify({ ...base, kind: 'jsonrpc' }))?.kind).toBe('jsonrpc');
  });

  it('gives the SDK clients the network a URL names, localnet for any other host', () => {
    expect(networkOf('https://graphql.testnet.sui.io/graphql')).toBe('testnet');
    expect(networkOf('https://fullnode.mainnet.sui.io:443')).toBe('mainnet');
    expect(networkOf('https://sui-devnet.mystenlabs.com/graphql')).toBe('devnet');
    expect(networkOf('http://127.0.0.1:9000')).toBe('localnet');
    expect(networkOf('https://rpc.example-testnets.io')).toBe('localnet');
  });

  it('reads grpcUrl when it is an http(s) URL, and refuses anything else naming the field', () => {
    expect(parseChainConfig(JSON.stringify({ ...base, grpcUrl: 'https://fullnode.testnet.sui.io:443' }))?.grpcUrl).toBe('https://fullnode.testnet.sui.io:443');
    expect(parseChainConfig(JSON.stringify(base))).not.toHaveProperty('grpcUrl');
    expect(() => parseChainConfig(JSON.stringify({ ...base, grpcUrl: 'fullnode:443' }))).toThrow(/^chain config: grpcUrl/);
    expect(() => parseChainConfig(JSON.stringify({ ...base, grpcUrl: 443 }))).toThrow(/^chain config: grpcUrl/);
  });

  it('a chain has reads only with a grpcUrl, and they reach that node', async () => {
    const nft = hero(randomAddress());
    const { node } = await fullNode(new ChainScript().putObject(nft));
    expect(createChain({ kind: 'graphql', ...base }).reads).toBeUndefined();

    const chain = createChain({ kind: 'graphql', ...base, grpcUrl: node.url }, { timeoutMs: TIMEOUT_MS });
    expect((await chain.reads!.object(nft.objectId))?.type).toBe(HERO_TYPE);
    expect(node.calls('BatchGetObjects')).toHaveLength(1);
  });
});
