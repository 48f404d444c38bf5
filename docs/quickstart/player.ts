/**
 * The player's game for docs/quickstart.md, written with the TypeScript client (clients/ts):
 *
 *   npx tsx docs/quickstart/player.ts sign-in   # signs in with the wallet, exports PLAYER_ID and PLAYER_ADDRESS
 *   npx tsx docs/quickstart/player.ts order     # orders level 1 of $PROJECT ($PRICE_ID): what to pay, exported
 *   npx tsx docs/quickstart/player.ts complete  # completes $ORDER_ID with the payment $TX_DIGEST
 *   npx tsx docs/quickstart/player.ts tickets   # the player's tickets of $PROJECT level 1
 *   npx tsx docs/quickstart/player.ts reward    # waits for the player's reward of a settled season, exports REWARD_ID
 *   npx tsx docs/quickstart/player.ts claim     # has the platform sign $REWARD_ID's claim, exports what redeems it
 *   npx tsx docs/quickstart/player.ts claimed   # waits until the platform saw $REWARD_ID redeemed on chain
 *
 * The wallet is docs/quickstart/wallet.ts's. Each command is a process of its own, so each signs in again with
 * the same wallet and player id (PLAYER_ID, else the one kept beside the wallet's key); a game keeps its session
 * for the day.
 */
import { type PlayerSession, settle, signInWithSuiWallet, unwrap } from '@game-platform/client';
import { baseUrl, exportLine, need, runCommands, say } from './commands.js';
import { keepPlayerId, keptPlayerId, wallet } from './wallet.js';

const signIn = (): Promise<PlayerSession> =>
  signInWithSuiWallet({
    baseUrl: baseUrl(),
    signer: wallet(),
    // A new player has no id yet: the client picks one, and the game keeps it with the wallet.
    userId: process.env.PLAYER_ID || keptPlayerId(),
    gameCode: 'demo-arena',
  });

async function signInCommand() {
  const player = await signIn();
  keepPlayerId(player.userId);
  say(JSON.stringify({ userId: player.userId, address: wallet().toSuiAddress() }));
  exportLine('PLAYER_ID', player.userId);
  exportLine('PLAYER_ADDRESS', wallet().toSuiAddress());
}

async function order() {
  const player = await signIn();
  const project = need('PROJECT');
  const body = { userId: player.userId, project, priceId: Number(need('PRICE_ID')), prevId: -1, level: 1, amount: 100_000_000 };
  const order = await unwrap(player.api.POST('/account/user/rechargeOrder', { body }));
  const deposit = await unwrap(player.api.GET('/account/user/getDepositaddress', { params: { query: { project, orderId: order.id } } }));
  say(JSON.stringify({ bill_no: order.bill_no, amount_base: order.amount_base, tickets: order.tickets, payment_uri: deposit.order?.payment_uri }, null, 2));
  exportLine('ORDER_ID', String(order.id));
  exportLine('BILL_NO', order.bill_no);
  exportLine('AMOUNT', order.amount_base);
  exportLine('RECEIVE_ADDRESS', deposit.receive_address);
}

async function complete() {
  const player = await signIn();
  const body = { orderId: Number(need('ORDER_ID')), transactionId: need('TX_DIGEST') };
  // On testnet the payment may take a few seconds to be final: the service refuses until it can see it.
  for (let attempt = 1; ; attempt++) {
    const completed = await settle(player.api.POST('/account/user/orderComplete', { body }));
    if (completed.ok) return say(JSON.stringify(completed.data));
    if (attempt === 10) throw completed.error;
    say(`not yet (${completed.error.code}: ${completed.error.message}); again in 2 s`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function tickets() {
  const player = await signIn();
  const answer = await unwrap(player.api.GET('/account/game/tickets', { params: { query: { projectName: need('PROJECT'), level: 1 } } }));
  say(JSON.stringify(answer));
}

/** The player's newest reward entry once `ready` holds for it (settlement and the indexer run every few seconds). */
async function waitForReward(ready: (entry: { id: number; status: number }) => boolean) {
  const player = await signIn();
  for (let attempt = 1; ; attempt++) {
    const [entry] = await unwrap(player.api.GET('/chain/reward/history', { params: { query: { page: 0, pageSize: 1 } } }));
    if (entry && ready(entry)) return entry;
    if (attempt === 60) throw new Error('no such reward yet: is the season settled (docs/quickstart.md step 10)?');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function reward() {
  const entry = await waitForReward(() => true);
  say(JSON.stringify({ id: entry.id, game_code: entry.game_code, rank: entry.rank, reward_amount: entry.reward_amount, status: entry.status }));
  exportLine('REWARD_ID', String(entry.id));
}

async function claim() {
  const player = await signIn();
  const signed = await unwrap(player.api.POST('/merchant/sign/code', { body: { id: Number(need('REWARD_ID')) } }));
  // The verifier's package is the game's package_id; its object is the claim's `game`.
  const games = await unwrap(player.api.GET('/chain/game/code'));
  const game = games.find((g) => g.object_id === signed.game);
  if (!game?.package_id) throw new Error(`no game names the verifier ${signed.game}`);
  say(JSON.stringify({ id: signed.id, recipient: signed.recipient, amount: signed.amount, chain: signed.chain, game: signed.game }));
  exportLine('CLAIM_PACKAGE', game.package_id);
  exportLine('CLAIM_VERIFIER', signed.game!);
  exportLine('CLAIM_MESSAGE', signed.message);
  exportLine('CLAIM_SIGNATURE', signed.signature);
}

async function claimed() {
  const id = Number(need('REWARD_ID'));
  const entry = await waitForReward((e) => e.id === id && e.status === 2);
  say(JSON.stringify({ id: entry.id, status: entry.status }));
}

runCommands(import.meta.url, 'player.ts', { 'sign-in': signInCommand, order, complete, tickets, reward, claim, claimed });
