import type { Chain, ChainConfig, ChainReads, ChainSource, PaymentKitConfig } from './types.js';
import { canonicalType } from './names.js';
import { jsonObjectSetting } from '../platform/settings.js';

/** The registry every Payment Kit deployment creates (the standard's `DEFAULT_PAYMENT_REGISTRY_NAME`). */
export const DEFAULT_REGISTRY = 'default-payment-registry';

/**
 * The stage's chain: which source it reads (configuration, not code, decides: GraphQL by default, Sui's live
 * API since its public JSON-RPC was switched off in July 2026; JSON-RPC, which the contract's event query uses, for
 * an operator's node that still serves it), the full node it reads objects from over gRPC, and the Move types
 * it cares about.
 */

/** How long one request to the node may take unless the caller says otherwise. */
export const DEFAULT_TIMEOUT_MS = 5000;

export interface ChainOptions {
  /** Per request to the node; a request that takes longer fails as a node error. */
  timeoutMs?: number;
}

const MOVE_TYPE = /^0x[0-9a-fA-F]{1,64}::\w+::\w+(<.+>)?$/;
const MOVE_FUNCTION = /^0x[0-9a-fA-F]{1,64}::\w+::\w+$/;

/**
 * Parses the stage's chain setting (CHAIN_CONFIG locally, the ChainConfig secret deployed): JSON of a
 * ChainConfig. Unset or blank means the stage has no chain (undefined); anything else that is not a valid
 * configuration is an Error naming the field, so a bad setting fails loudly at start rather than per request.
 * `kind` may be left out: the source is then GraphQL.
 */
export function parseChainConfig(json: string | undefined): ChainConfig | undefined {
  const value = jsonObjectSetting(json, 'chain config');
  if (!value) return undefined;
  const { kind = 'graphql', url, grpcUrl, paymentEventType, paymentFunction, paymentKit, claimEventType } = value;
  if (kind !== 'jsonrpc' && kind !== 'graphql') throw new Error('chain config: kind must be "graphql" (the default) or "jsonrpc"');
  if (typeof url !== 'string' || !isHttpUrl(url)) throw new Error('chain config: url must be an http(s) URL');
  if (grpcUrl !== undefined && (typeof grpcUrl !== 'string' || !isHttpUrl(grpcUrl))) throw new Error('chain config: grpcUrl must be an http(s) URL');
  if (paymentEventType === undefined && paymentKit === undefined) throw new Error('chain config: paymentEventType or paymentKit is required');
  if (paymentEventType !== undefined && (typeof paymentEventType !== 'string' || !MOVE_TYPE.test(paymentEventType))) {
    throw new Error('chain config: paymentEventType must be a Move type such as 0xabc::pay::PaymentEvent');
  }
  if (paymentFunction !== undefined && (typeof paymentFunction !== 'string' || !MOVE_FUNCTION.test(paymentFunction))) {
    throw new Error('chain config: paymentFunction must be a Move function such as 0xabc::pay::pay');
  }
  if (claimEventType !== undefined && (typeof claimEventType !== 'string' || !MOVE_TYPE.test(claimEventType))) {
    throw new Error('chain config: claimEventType must be a Move type such as 0xabc::rewards::RewardClaimed');
  }
  return {
    kind,
    url,
    ...(grpcUrl === undefined ? {} : { grpcUrl }),
    ...(paymentEventType === undefined ? {} : { paymentEventType: canonicalType(paymentEventType) }),
    ...(paymentFunction === undefined ? {} : { paymentFunction }),
    ...(paymentKit === undefined ? {} : { paymentKit: parsePaymentKit(paymentKit) }),
    ...(claimEventType === undefined ? {} : { claimEventType: canonicalType(claimEventType) }),
  };
}

const OBJECT_ID = /^0x[0-9a-fA-F]{1,64}$/;
/** A registry name as the standard allows it: 3-63 lower-case letters, digits and inner hyphens. */
const REGISTRY_NAME = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

function parsePaymentKit(value: unknown): PaymentKitConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('chain config: paymentKit must be an object');
  const { packageId, registry = DEFAULT_REGISTRY } = value as Record<string, unknown>;
  if (typeof packageId !== 'string' || !OBJECT_ID.test(packageId))
    throw new Error('chain config: paymentKit.packageId must be the Payment Kit package id (0x…)');
  if (typeof registry !== 'string' || !(OBJECT_ID.test(registry) || REGISTRY_NAME.test(registry))) {
    throw new Error('chain config: paymentKit.registry must be a registry object id (0x…) or a registry name (3-63 of a-z, 0-9 and inner hyphens)');
  }
  return { packageId: fullId(packageId), registry: OBJECT_ID.test(registry) ? fullId(registry) : registry };
}

const fullId = (id: string) => `0x${id.slice(2).toLowerCase().padStart(64, '0')}`;

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * The chain a configuration describes. The SDK client behind the chosen source, and the gRPC one behind the
 * reads, is imported on first use, so a function that never talks to the node does not load it at cold
 * start, and a function loads only the clients it calls (docs/api.md, "Chain sources and reads", has sizes).
 */
export function createChain(config: ChainConfig, options: ChainOptions = {}): Chain {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const source =
    config.kind === 'graphql'
      ? lazySource(() => import('./graphql.js').then((m) => m.graphqlSource(config.url, { timeoutMs })))
      : lazySource(() => import('./jsonrpc.js').then((m) => m.jsonRpcSource(config.url, { timeoutMs })));
  const { grpcUrl } = config;
  if (!grpcUrl) return { config, source };
  return { config, source, reads: lazyReads(() => import('./grpc.js').then((m) => m.grpcReads(grpcUrl, { timeoutMs }))) };
}

/** parseChainConfig then createChain: what the deployed and local Deps call with the raw setting. */
export function chainFromSetting(json: string | undefined, options: ChainOptions = {}): Chain | undefined {
  const config = parseChainConfig(json);
  return config && createChain(config, options);
}

/** The first call of `load` that succeeds, shared; a failed load (a chunk that did not load) is tried again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

function lazyReads(load: () => Promise<ChainReads>): ChainReads {
  const get = once(load);
  return {
    object: async (objectId) => (await get()).object(objectId),
    transactionEvents: async (digest) => (await get()).transactionEvents(digest),
  };
}

function lazySource(load: () => Promise<ChainSource>): ChainSource {
  const get = once(load);
  return {
    queryEvents: async (eventType, cursor, limit) => (await get()).queryEvents(eventType, cursor, limit),
    transactionEvents: async (digest) => (await get()).transactionEvents(digest),
    balanceChanges: async (digest) => (await get()).balanceChanges(digest),
  };
}
