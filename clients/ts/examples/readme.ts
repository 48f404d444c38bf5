// The example of the repository's README, quoted from here: the type check compiles it, and
// test/client-types.test.ts fails when the README's example is not this file's text.
import type { PersonalMessageSigner } from '@game-platform/client';
import { createMainClient, settle, signInWithSuiWallet, unwrap } from '@game-platform/client';

// The player: a wallet signs in; the session picks the token each operation takes.
const player = await signInWithSuiWallet({ baseUrl, signer: keypair, userId, gameCode: 'demo-arena' });
const order = await unwrap(player.api.POST('/account/user/rechargeOrder', { body: { userId, project, priceId, prevId: -1, level: 1, amount: 100_000_000 } }));

// The game's server: a ticket for a match (the call gets an Idempotency-Key; retries take once), then the result.
const server = createMainClient({ baseUrl, token: serverToken });
const spent = await settle(server.POST('/account/game/minus_tickets', { body: { userId, projectName: project, level: 1, amount: 1 } }));
if (!spent.ok && spent.error.code === 'tickets.balance_short') console.log('the player needs tickets');
await unwrap(server.POST('/merchant/games/addWin', { body: { game_code: 'demo-arena', game_player_id: userId, game_player_name: 'Ada', kills: 3, wins: 1 } }));

declare const baseUrl: string;
declare const keypair: PersonalMessageSigner;
declare const userId: string;
declare const project: string;
declare const priceId: number;
declare const serverToken: string;

export { order };
