/**
 * The game's server for docs/quickstart.md, written with the TypeScript client (clients/ts):
 *
 *   npx tsx docs/quickstart/game-server.ts match   # takes $PLAYER_ID's ticket for a match, reports its result
 *
 * It holds the merchant's server token ($SERVER, from the console's GET /merchant/token).
 */
import { createMainClient, unwrap } from '@game-platform/client';
import { baseUrl, need, runCommands, say } from './commands.js';

async function match() {
  const server = createMainClient({ baseUrl: baseUrl(), token: need('SERVER') });
  const player = need('PLAYER_ID');
  // The match's own key: sent again after a crash, the deduction is answered, not taken twice.
  const key = `match-1-${player}`;
  await unwrap(
    server.POST('/account/game/minus_tickets', {
      body: { userId: player, projectName: need('PROJECT'), level: 1, amount: 1 },
      params: { header: { 'Idempotency-Key': key } },
    }),
  );
  const result = { game_code: 'demo-arena', game_player_id: player, game_player_name: 'Quickstart', kills: 3, wins: 1 };
  await unwrap(server.POST('/merchant/games/addWin', { body: result }));
  // The boards follow the reports a moment behind (the table's stream, about a second), each board on its own: read
  // until the player is on all four.
  const readBoards = () => unwrap(server.GET('/merchant/games/rank', { params: { query: { game_code: 'demo-arena' } } }));
  type Boards = Awaited<ReturnType<typeof readBoards>>;
  const onEveryBoard = (b: Boards) =>
    [b.gameWeekKillRank, b.gameWeekWinRank, b.gameMothKillRank, b.gameMothWinRank].every((rows) => rows.some((row) => row.game_player_id === player));
  let boards = await readBoards();
  for (let attempt = 1; attempt < 80 && !onEveryBoard(boards); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    boards = await readBoards();
  }
  say(JSON.stringify(boards));
}

runCommands(import.meta.url, 'game-server.ts', { match });
