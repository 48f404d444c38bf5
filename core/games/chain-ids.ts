import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';

export interface GameChainIds {
  code: string;
  /** The game's Move package (0x + 64 hex), null when its merchant has not set it. */
  package_id: string | null;
  /** The game's shared object on chain (0x + 64 hex), null when unset. */
  object_id: string | null;
}

/**
 * gameCode: every game's code with its on-chain ids, newest game first, from the all-games index (gsi2pk
 * `GAME`) with a projection of the three fields: one Query (it follows pages only past 1 MB, tens of
 * thousands of games).
 */
export async function gameChainIds(deps: Pick<PlatformDeps, 'db' | 'table'>): Promise<GameChainIds[]> {
  const items = await queryItems(deps, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': 'GAME' },
    ProjectionExpression: '#code, #package, #object',
    ExpressionAttributeNames: { '#code': 'code', '#package': 'package_id', '#object': 'object_id' },
    ScanIndexForward: false,
  });
  return items.map((item) => ({
    code: item.code as string,
    package_id: (item.package_id as string | undefined) || null,
    object_id: (item.object_id as string | undefined) || null,
  }));
}
