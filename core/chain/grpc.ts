import { ObjectError, TransactionError, type SuiClientTypes } from '@mysten/sui/client';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { isValidTransactionDigest, normalizeSuiObjectId } from '@mysten/sui/utils';
import { ChainNodeError, nodeFailure } from './errors.js';
import { canonicalType, networkOf } from './names.js';
import type { ChainEvent, ChainObject, ChainReads, ObjectOwner } from './types.js';

/**
 * ChainReads on a full node's gRPC API (gRPC-web over HTTP, which is what `@mysten/sui`'s SuiGrpcClient
 * speaks by default), through the SDK's top-level methods: getObject (LedgerService.BatchGetObjects) and
 * getTransaction (LedgerService.GetTransaction), which build the read masks and map the protobuf answer into
 * the SDK's own shapes. Why these reads go over gRPC and the event stream over GraphQL: docs/api.md, "Chain
 * sources and reads".
 */

const OBJECT_ID = /^0x[0-9a-fA-F]{1,64}$/;

export function grpcReads(url: string, { timeoutMs }: { timeoutMs: number }): ChainReads {
  const client = new SuiGrpcClient({ baseUrl: url, network: networkOf(url) });

  return {
    async object(objectId) {
      // An id that is not an address cannot name an object; no node is asked about it.
      if (!OBJECT_ID.test(objectId)) return undefined;
      try {
        const { object } = await client.getObject({
          objectId: normalizeSuiObjectId(objectId),
          include: { json: true },
          signal: AbortSignal.timeout(timeoutMs),
        });
        return toChainObject(object);
      } catch (error) {
        // The node's per-object NOT_FOUND, which the SDK turns into an ObjectError with reason notFound.
        if (error instanceof ObjectError && error.reason === 'notFound') return undefined;
        throw nodeFailure('BatchGetObjects', error, timeoutMs);
      }
    },

    async transactionEvents(digest) {
      if (!isValidTransactionDigest(digest)) return undefined;
      let result: SuiClientTypes.TransactionResult<{ events: true }>;
      try {
        result = await client.getTransaction({ digest, include: { events: true }, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (error instanceof TransactionError && error.reason === 'notFound') return undefined;
        throw nodeFailure('GetTransaction', error, timeoutMs);
      }
      // A transaction that failed in execution emitted nothing, and the node says so with an empty list.
      const transaction = result.Transaction ?? result.FailedTransaction;
      return transaction.events.map((event, index) => toChainEvent(event, index, transaction.digest, transaction.timestampMs));
    },
  };
}

function toChainObject(object: SuiClientTypes.Object<{ json: true }>): ChainObject {
  if (!object.type.includes('::')) throw new ChainNodeError(`the node answered ${object.objectId}, which is a package, not a Move object`);
  return {
    objectId: normalizeSuiObjectId(object.objectId),
    version: object.version,
    type: canonicalType(object.type),
    owner: toOwner(object.owner),
    fields: object.json ?? {},
  };
}

function toOwner(owner: SuiClientTypes.ObjectOwner): ObjectOwner {
  switch (owner.$kind) {
    case 'AddressOwner':
      return { kind: 'address', address: normalizeSuiObjectId(owner.AddressOwner) };
    case 'ConsensusAddressOwner':
      return { kind: 'address', address: normalizeSuiObjectId(owner.ConsensusAddressOwner.owner) };
    case 'ObjectOwner':
      return { kind: 'object', objectId: normalizeSuiObjectId(owner.ObjectOwner) };
    case 'Shared':
      return { kind: 'shared' };
    case 'Immutable':
      return { kind: 'immutable' };
    default:
      throw new ChainNodeError('the node answered an object owner of a kind this platform does not know');
  }
}

/**
 * The SDK's event as a ChainEvent. gRPC events carry no sequence number of their own: an event's place in
 * its transaction's list is its eventSeq, as in the other APIs.
 */
function toChainEvent(event: SuiClientTypes.Event, index: number, txDigest: string, timestampMs: number | null): ChainEvent {
  if (!event.eventType) throw new ChainNodeError('the node answered an event without its type');
  return {
    type: canonicalType(event.eventType),
    txDigest,
    eventSeq: String(index),
    sender: event.sender,
    parsedJson: event.json ?? {},
    ...(timestampMs === null ? {} : { timestampMs: String(timestampMs) }),
  };
}
