import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';

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
export async function gameChainIds(deps: Pick<Deps, 'db' | 'table'>): Promise<GameChainIds[]> {
  const games: GameChainIds[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': 'GAME' },
        ProjectionExpression: '#code, #package, #object',
        ExpressionAttributeNames: { '#code': 'code', '#package': 'package_id', '#object': 'object_id' },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) {
      games.push({ code: item.code as string, package_id: (item.package_id as string | undefined) || null, object_id: (item.object_id as string | undefined) || null });
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return games;
}
