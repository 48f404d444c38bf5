import { randomBytes, randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bindWallet } from '../../core/identity/accounts.js';
import { storePaymentEvent } from '../../core/payments/chain-payments.js';
import { ProjectCreate } from '../../core/payments/models.js';
import { createProject, saveLevel } from '../../core/payments/projects.js';
import type { Deps } from '../../core/deps.js';
import { transactOrFailedConditions } from '../../core/platform/transactions.js';
import { balanceOf, creditItems, debitItems } from '../../core/tickets/balances.js';
import { merchantWithToken } from './merchants.js';
import { createGame } from '../../core/games/games.js';
import { GameCreate } from '../../core/games/models.js';
import { gamePayload, newCode } from './games.js';
import type { Hono } from 'hono';
import { call } from './http.js';

let projects = 0;

/** An active merchant with a project paid in SUI (9 decimals) and level 1: 1.5 SUI for 100 tickets. */
export async function projectWithLevel(deps: Deps, options: { price?: number; tickets?: number } = {}) {
  const owner = await merchantWithToken(deps);
  const receiveAddress = Ed25519Keypair.generate().toSuiAddress();
  const project = await createProject(
    deps,
    owner.claims,
    ProjectCreate.parse({
      project_name: `proj-${++projects}-${Date.now().toString(36)}`,
      receive_address: receiveAddress,
      coin_type: '0x2::sui::SUI',
      precison: 9,
    }),
  );
  const level = await saveLevel(deps, owner.claims, {
    project_name: project.project_name,
    level: 1,
    amount: String(options.price ?? 1_500_000_000),
    tickets: options.tickets ?? 100,
    status: 1,
  });
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  // A game of the same merchant: game tokens for it may spend in the project.
  const game = await createGame(deps, owner.claims, GameCreate.parse(gamePayload(newCode('shop'))));
  return { owner, project, level, server, receiveAddress, gameCode: game.code };
}

/** A player with a wallet account, a platform token and a game token (for `gameCode` when given). */
export async function playerWithTokens(deps: Deps, gameCode?: string) {
  const keypair = Ed25519Keypair.generate();
  const uid = randomUUID();
  const address = keypair.toSuiAddress();
  await bindWallet(deps, { uid, address, walletType: 1 });
  const [platform, game] = await Promise.all([
    deps.tokens.issue('platform', uid),
    deps.tokens.issue('game', uid, gameCode === undefined ? {} : { game_code: gameCode }),
  ]);
  return { uid, address, keypair, platform: platform.token, game: game.token };
}

/** A game server's deduction ready to send: a project, a player holding 10 tickets of its level 1, minus_tickets' body. */
export async function deductionOf(deps: Deps, amount = 3) {
  const shop = await projectWithLevel(deps);
  const buyer = await playerWithTokens(deps);
  await giveTickets(deps, buyer.uid, shop.project.project_name, 1, 10);
  return { shop, buyer, body: { userId: buyer.uid, projectName: shop.project.project_name, level: 1, amount } };
}

/** Gives a user `amount` tickets of a project level (as a paid order would). */
export async function giveTickets(deps: Deps, uid: string, projectName: string, level: number, amount: number) {
  const failed = await transactOrFailedConditions(deps, creditItems(deps, { uid, projectName, level }, amount, `test#${randomUUID()}`));
  if (failed.length > 0) throw new Error('could not credit tickets');
}

/** A base58 transaction digest (32 random bytes), as Sui writes them. */
export function randomDigest(): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = alphabet[Number(value % 58n)] + out;
    value /= 58n;
  }
  return out.padStart(43, '1');
}

/**
 * A payment as the chain indexer stores it: the contract's payment event (`bill_no`, `amount`, `from`, `to`,
 * `coin_type`) in a new transaction. Answers the transaction's digest, what orderComplete takes.
 */
export async function indexedPayment(deps: Deps, payment: { billNo: string; amount: string; from: string; to: string; coinType?: string; eventType?: string }) {
  const digest = randomDigest();
  await storePaymentEvent(deps, {
    type: payment.eventType ?? '0xfeed::pay::PaymentEvent',
    txDigest: digest,
    eventSeq: '0',
    sender: payment.from,
    parsedJson: { bill_no: payment.billNo, amount: payment.amount, from: payment.from, to: payment.to, coin_type: payment.coinType ?? '0x2::sui::SUI' },
  });
  return digest;
}

/**
 * A player's pending recharge order of a level sold in an app store (level 1: 1.5 SUI or the store product, 100
 * tickets), made through rechargeOrder as the app makes it; with the player's balance of that level, and a way
 * to spend from it.
 */
export async function storeOrder(
  deps: Deps,
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  products: { apple_product_id?: string; google_product_id?: string },
) {
  const setup = await projectWithLevel(deps);
  const project = setup.project.project_name;
  await saveLevel(deps, setup.owner.claims, { project_name: project, level: 1, amount: '1500000000', tickets: 100, status: 1, ...products });
  const player = await playerWithTokens(deps);
  const res = await app.request(`/v2-testing/account/user/rechargeOrder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${player.platform}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: player.uid, project, priceId: setup.level.priceId, prevId: -1, level: 1, amount: '1500000000' }),
  });
  if (res.status !== 200) throw new Error(`rechargeOrder answered ${res.status}`);
  const order = (await res.json()) as { id: number; app_account_token: string };
  const target = { uid: player.uid, projectName: project, level: 1 };
  return {
    order,
    player,
    tickets: () => balanceOf(deps, target),
    spend: async (amount: number) => {
      const failed = await transactOrFailedConditions(deps, debitItems(deps, target, amount, `test#${randomUUID()}`));
      if (failed.length > 0) throw new Error(`could not spend ${amount}`);
    },
  };
}

/** The player's recharge order of the shop's level 1 at `price`, through `pay` (anything but 200 throws): its id and bill number. */
export async function rechargeThrough(
  pay: Hono,
  shop: { project: { project_name: string }; level: { priceId: unknown } },
  player: { uid: string; platform: string },
  price: string,
  prevId = -1,
) {
  const res = await call(pay, 'POST', '/v2-testing/account/user/rechargeOrder', {
    token: player.platform,
    body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId, level: 1, amount: Number(price) },
  });
  if (res.status !== 200) throw new Error(`rechargeOrder answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: number; bill_no: string };
}
