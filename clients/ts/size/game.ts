// A browser game's use of the client, for its bundle size (npm run client-size): a player signs in with a wallet,
// buys and spends tickets, reads the boards.
import { settle, signInWithSuiWallet, unwrap } from '../src/index.js';

export async function play(signer: Parameters<typeof signInWithSuiWallet>[0]['signer']) {
  const player = await signInWithSuiWallet({ baseUrl: 'https://api.example.com/v2-prod', signer, gameCode: 'arena' });
  const order = await unwrap(
    player.api.POST('/account/user/rechargeOrder', { body: { userId: player.userId, project: 'p', priceId: 1, prevId: -1, level: 1, amount: 1 } }),
  );
  const spent = await settle(player.api.POST('/account/game/minus_tickets', { body: { userId: player.userId, projectName: 'p', level: 1, amount: 1 } }));
  return { order, spent, rank: await unwrap(player.api.GET('/merchant/games/rank', { params: { query: { game_code: 'arena' } } })) };
}
