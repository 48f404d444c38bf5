import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { readRemembered, type RememberedRead } from '../platform/process-memory.js';
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
 * How long a process answers gameCode from what it read. The answer lists every game, so reading it costs read units
 * in proportion to the platform's games (about 600 B a game through the all-games index: 61 games 4.5 units, 10,000
 * games about 750), on a call every player's client may make at start. Remembered, a warm process reads it once a
 * minute whatever its callers' rate; a game created or given chain ids in another process appears within the minute,
 * in this one at once (`forgetGameChainIds`).
 */
export const GAME_LIST_MEMORY_MS = 60_000;

const lists = new Map<string, RememberedRead<GameChainIds[]>>();

/** gameCode: every game's code with its on-chain ids, newest game first, as read within the last minute. */
export function gameChainIds(deps: Pick<PlatformDeps, 'db' | 'table'>): Promise<GameChainIds[]> {
  return readRemembered(lists, deps.table, GAME_LIST_MEMORY_MS, () => readGameChainIds(deps));
}

/** Forgets the remembered list: this process has just created a game or changed a game's chain ids. */
export function forgetGameChainIds(deps: Pick<PlatformDeps, 'table'>): void {
  lists.delete(deps.table);
}

/**
 * Every game's code with its on-chain ids as stored now, from the all-games index (gsi2pk `GAME`) with a
 * projection of the three fields: one Query (it follows pages only past 1 MB, tens of thousands of games).
 */
async function readGameChainIds(deps: Pick<PlatformDeps, 'db' | 'table'>): Promise<GameChainIds[]> {
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
