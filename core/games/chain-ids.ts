import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';

/** An on-chain id of a game (0x + 64 hex), null while its merchant has not set it (absent, null or ''). */
const chainId = z.pipe(
  z.optional(z.nullable(z.string())),
  z.transform((id) => id || null),
);
/** "all games, newest first" (gsi2pk `GAME`), projected to a game's code and on-chain ids. */
const GameChainIds = z.object({
  code: z.string(),
  /** The game's Move package. */
  package_id: chainId,
  /** The game's shared object on chain. */
  object_id: chainId,
});
export type GameChainIds = z.infer<typeof GameChainIds>;

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
  return items.map((item) => GameChainIds.parse(item));
}
