/**
 * The player's game for docs/quickstart.md, written with the TypeScript client (clients/ts):
 *
 *   npx tsx docs/quickstart/player.ts sign-in   # signs in with the wallet, exports PLAYER_ID and PLAYER_ADDRESS
 *   npx tsx docs/quickstart/player.ts order     # orders level 1 of $PROJECT ($PRICE_ID): what to pay, exported
 *   npx tsx docs/quickstart/player.ts complete  # completes $ORDER_ID with the payment $TX_DIGEST
 *   npx tsx docs/quickstart/player.ts tickets   # the player's tickets of $PROJECT level 1
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
  say(
    JSON.stringify({ bill_no: order.bill_no, amount_base: order.amount_base, tickets: order.tickets, payment_uri: deposit.data.order?.payment_uri }, null, 2),
  );
  exportLine('ORDER_ID', String(order.id));
  exportLine('BILL_NO', order.bill_no);
  exportLine('AMOUNT', order.amount_base);
  exportLine('RECEIVE_ADDRESS', deposit.data.receive_address);
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
  say(JSON.stringify(answer.data));
}

runCommands(import.meta.url, 'player.ts', { 'sign-in': signInCommand, order, complete, tickets });
