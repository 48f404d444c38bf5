import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from '../platform/deps.js';
import { paramsKey } from './keys.js';

/**
 * save_params: a player's launch or referral parameters, a bounded map (validated at the edge by `Params`)
 * that replaces what was saved before. Access pattern "parameters of a user": pk `USER#<uid>`, sk `PARAMS`.
 */
export async function saveParams(deps: PlatformDeps, uid: string, params: Record<string, string>) {
  const updated_at = deps.now().toISOString();
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...paramsKey(uid), type: 'params', params, updated_at } }));
  return { params, updated_at };
}
