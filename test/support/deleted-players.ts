import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Deps } from '../../core/deps.js';
import { walletKey } from '../../core/identity/keys.js';
import { goneKey } from '../../core/platform/players.js';
import { queryItems } from '../../core/platform/query.js';
import type { Hono } from 'hono';
import { call } from './http.js';

/**
 * What a player's deletion leaves, made directly (the deletion itself is not written yet): the gone mark, and
 * none of the player's account items (`USER#<uid>`: account, balances, ledger, params, social listing) nor the
 * address's binding (`WALLET#<address>`).
 */
export async function markDeleted(deps: Deps, uid: string, address: string): Promise<void> {
  const deletedAt = Math.floor(deps.now().getTime() / 1000);
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...goneKey(uid), type: 'gone', deleted_at: deletedAt } }));
  const items = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${uid}` }, ConsistentRead: true });
  for (const item of items) await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: walletKey(address) }));
}

/** The player deletes their account through the API (a wallet player: the challenge signed with their key); answers the deletion's answer. */
export async function deleteAccountThroughApi(app: Hono, player: { platform: string; keypair: Ed25519Keypair }, base = '/v2-testing') {
  const challenge = await call(app, 'POST', `${base}/account/deletion/challenge`, { token: player.platform });
  const signature = (await player.keypair.signPersonalMessage(new TextEncoder().encode(challenge.body.data.message))).signature;
  const deleted = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } });
  if (deleted.status !== 200) throw new Error(`account delete answered ${deleted.status}: ${JSON.stringify(deleted.body)}`);
  return deleted.body.data;
}
