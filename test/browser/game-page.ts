// A browser game's page for test/client-browser.test.ts: the TypeScript client, bundled for browsers, calling the
// platform from another origin. It signs a player in with zkLogin (the id_token in the page's hash), reads, orders
// tickets, tries to spend more than the player holds, and leaves what it saw in `window.result`.
import { settle, signInWithZkLogin, unwrap } from '@game-platform/client';

/** The page's window (the project's type check has no DOM library). */
const page = globalThis as unknown as { location: { hash: string }; result?: unknown };

const { base, idToken, project, priceId } = JSON.parse(decodeURIComponent(page.location.hash.slice(1))) as {
  base: string;
  idToken: string;
  project: string;
  priceId: number;
};

async function play() {
  const player = await signInWithZkLogin({ baseUrl: base, idToken: async () => idToken, gameCode: 'demo-arena' });
  const game = await unwrap(player.api.GET('/merchant/games/detail', { params: { query: { code: 'demo-arena' } } }));
  const order = await unwrap(
    player.api.POST('/account/user/rechargeOrder', { body: { userId: player.userId, project, priceId, prevId: -1, level: 1, amount: 100_000_000 } }),
  );
  const spent = await settle(player.api.POST('/account/game/minus_tickets', { body: { userId: player.userId, projectName: project, level: 1, amount: 1 } }));
  return {
    userId: player.userId,
    game: game.code,
    order: { status: order.status, tickets: order.tickets },
    spent: spent.ok ? 'spent' : { status: spent.error.status, code: spent.error.code },
  };
}

play().then(
  (result) => (page.result = result),
  (error: unknown) => (page.result = { failed: String(error) }),
);
