import { readForRequest } from '../chain/errors.js';
import type { ChainObject, ObjectOwner } from '../chain/types.js';
import type { HeroesDeps } from './deps.js';
import { platformError } from '../platform/errors.js';

/**
 * An object as the full node holds it now (never a cache: bind checks ownership against it): undefined when
 * no live object has the id (never created, deleted, or wrapped in another object). 503 when the stage reads
 * no objects (ChainConfig without grpcUrl) or the node does not answer.
 */
export async function liveObject(deps: Pick<HeroesDeps, 'chain'>, objectId: string): Promise<ChainObject | undefined> {
  const reads = deps.chain?.reads;
  if (!reads) throw platformError('chain.unconfigured', 'objectId: the stage reads no objects from the chain (the grpcUrl of its ChainConfig setting)');
  return readForRequest(() => reads.object(objectId), 'objectId', 'chain: object read failed', { objectId });
}

/** Who owns an object, in words for a refusal's message. */
export function ownerText(owner: ObjectOwner): string {
  switch (owner.kind) {
    case 'address':
      return `address ${owner.address}`;
    case 'object':
      return `object ${owner.objectId} (a kiosk or another object holds it)`;
    case 'shared':
      return 'no one (a shared object)';
    case 'immutable':
      return 'no one (an immutable object)';
  }
}
