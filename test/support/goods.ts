import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bindWallet } from '../../core/identity/accounts.js';
import { ProjectCreate } from '../../core/payments/models.js';
import { billNoOf, orderKey } from '../../core/payments/order-keys.js';
import { createProject } from '../../core/payments/projects.js';
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

/** A pay order item with the fields the vendor operations read (the order module writes the real ones). */
export async function putPayOrder(deps: Deps, fields: { userId: string; projectName: string; receiveAddress: string; status?: number; amountBase?: string }) {
  const id = await nextId(deps, 'order');
  const order = {
    id,
    user_id: fields.userId,
    status: fields.status ?? 0,
    amount_base: fields.amountBase ?? '1500000000',
    amount: '1.5',
    precison: 9,
    coin_type: '0x2::sui::SUI',
    receive_address: fields.receiveAddress,
    project_name: fields.projectName,
    bill_no: billNoOf(id),
  };
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...orderKey(id), type: 'order', ...order } }));
  return order;
}
