import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bindWallet, toAccountRecord } from '../../core/identity/accounts.js';
import { projectKey } from '../../core/access/keys.js';
import { userKey } from '../../core/identity/keys.js';
import { OrderStatus, ProjectCreate, TxType } from '../../core/payments/models.js';
import { billNoOf, orderKey, type StoredOrder } from '../../core/payments/order-keys.js';
import { createProject, storedProject } from '../../core/payments/projects.js';
import { readItems } from '../../core/platform/batch.js';
import { nextId } from '../../core/platform/counters.js';
import type { Deps } from '../../core/deps.js';
import { transactOrFailedConditions } from '../../core/platform/transactions.js';
import { creditItems, type TicketTarget } from '../../core/tickets/balances.js';
import { createGoods } from '../../core/goods/goods.js';
import { merchantWithToken } from './merchants.js';

let counter = 0;

/** An active merchant with one project, its merchant token and a server token. */
export async function merchantWithProject(deps: Deps) {
  const owner = await merchantWithToken(deps);
  const project = await createProject(
    deps,
    owner.claims,
    ProjectCreate.parse({
      project_name: `proj-${++counter}-${randomUUID().slice(0, 8)}`,
      receive_address: Ed25519Keypair.generate().toSuiAddress(),
      coin_type: '0x2::sui::SUI',
      precison: 9,
    }),
  );
  const server = await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id });
  return { ...owner, project, serverToken: server.token };
}

/** Goods of the merchant's project, made through the domain. */
export async function goodsFor(
  deps: Deps,
  owner: Awaited<ReturnType<typeof merchantWithProject>>,
  fields: { price?: number; level?: number; status?: number } = {},
) {
  return createGoods(deps, owner.claims, {
    name: 'Sword',
    projectName: owner.project.project_name,
    level: fields.level ?? 1,
    price: fields.price ?? 5,
    status: fields.status ?? 1,
  });
}

/** A player with a wallet account (as chainwallet_register makes it) and a platform token. */
export async function player(deps: Deps) {
  const uid = randomUUID();
  const address = Ed25519Keypair.generate().toSuiAddress();
  await bindWallet(deps, { uid, address, walletType: 1 });
  return { uid, address, token: (await deps.tokens.issue('platform', uid)).token };
}

/** Puts tickets on a balance the way payments do (a credit with its own ledger entry). */
export async function giveTickets(deps: Deps, target: TicketTarget, amount: number) {
  const failed = await transactOrFailedConditions(deps, creditItems(deps, target, amount, `test#${randomUUID()}`));
  if (failed.length > 0) throw new Error('credit refused');
}

/**
 * A pay order item as rechargeOrder stores it (core/payments/orders.ts), for the vendor operations' tests: the
 * project's id, coin and precision and the buyer's wallet address are read from their items, the level is one the
 * project need not have. No index keys: the order is reached by its key alone.
 */
export async function putPayOrder(deps: Deps, fields: { userId: string; projectName: string; receiveAddress: string; status?: number; amountBase?: string }) {
  const [projectItem, account] = await readItems(deps, [projectKey(fields.projectName), userKey(fields.userId)]);
  const project = storedProject(projectItem);
  if (!project || !account) throw new Error(`putPayOrder: no project ${fields.projectName} or no account ${fields.userId}`);
  const id = await nextId(deps, 'order');
  const now = deps.now().toISOString();
  const order = {
    id,
    project_id: project.project_id,
    deposit_id: null,
    amount_base: fields.amountBase ?? '1500000000',
    wallet_address: toAccountRecord(account).wallet_address,
    coin_type: project.coin_type,
    tx_type: TxType.chain,
    status: fields.status ?? OrderStatus.pending,
    created_at: now,
    updated_at: now,
    user_id: fields.userId,
    level: 1,
    precison: project.precison,
    bill_no: billNoOf(id),
    tickets: 150,
    project_name: fields.projectName,
    receive_address: fields.receiveAddress,
  } satisfies StoredOrder;
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...orderKey(id), type: 'order', ...order } }));
  return order;
}
