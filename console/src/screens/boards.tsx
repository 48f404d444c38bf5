import { useState } from 'preact/hooks';
import { RewardTableSave } from '../../../core/rewards/models.js';
import { claimStateName, pastSeasons } from '../seasons.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { FormError, Select, Submit, TextArea } from '../ui/field.js';
import { Done, ReadState } from '../ui/status.js';

/** One game's current boards, its reward table, and its past seasons with what each player was paid and claimed. */
export function BoardsScreen({ api }: { api: Api }) {
  const games = useRead(() => api.GET('/merchant/games', { params: { query: { page: 0, pageSize: 100 } } }), []);
  const [chosen, setChosen] = useState<string>();
  const codes = games.data?.games.map((game) => game.code) ?? [];
  const game = chosen ?? codes[0];
  if (!game) return <ReadState loading={games.loading} error={games.error ?? (games.data ? 'you have no games yet' : undefined)} what="your games" />;
  return (
    <>
      <Select label="Game" name="game" value={game} options={codes.map((code) => ({ value: code, label: code }))} onValue={setChosen} />
      <CurrentBoards api={api} game={game} />
      <RewardTableEditor api={api} game={game} />
      <PastSeasons api={api} game={game} />
    </>
  );
}

function CurrentBoards({ api, game }: { api: Api; game: string }) {
  const boards = useRead(() => api.GET('/merchant/games/rank', { params: { query: { game_code: game, limit: 10 } } }), [game]);
  const data = boards.data;
  const named = data
    ? ([
        ['Kills this week', data.gameWeekKillRank],
        ['Wins this week', data.gameWeekWinRank],
        ['Kills this month', data.gameMothKillRank],
        ['Wins this month', data.gameMothWinRank],
      ] as const)
    : [];
  return (
    <section aria-labelledby="current-boards-title">
      <h2 id="current-boards-title">Current boards</h2>
      <ReadState loading={boards.loading} error={boards.error} what="the boards" />
      <div class="boards">
        {named.map(([title, rows]) => (
          <table key={title}>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Player</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={3}>No scores yet</td>
                </tr>
              )}
              {rows.map((row, i) => (
                <tr key={row.game_player_id}>
                  <td>{i + 1}</td>
                  <td>{row.game_player_name || row.game_player_id}</td>
                  <td>{row.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  );
}

/** `1 500000000` per line: rank, then the reward in base units of the payout coin. */
const rowsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [rank, amount] = line.split(/\s+/);
      return { rank: Number(rank), amount: amount ?? '' };
    });

function RewardTableEditor({ api, game }: { api: Api; game: string }) {
  const table = useRead(() => api.GET('/merchant/games/rewards', { params: { query: { game_code: game } } }), [game]);
  const [board, setBoard] = useState<'wins' | 'kills'>('wins');
  const [text, setText] = useState('');
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(RewardTableSave, (body) => api.POST('/merchant/games/rewards', { body }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { game_code: game, board, rewards: rowsOf(text) };
    if (await save.submit(body)) {
      setDone('Reward table saved: it pays the seasons that end from now on.');
      table.reload();
    }
  };
  const current = table.data;
  return (
    <section aria-labelledby="reward-table-title">
      <h2 id="reward-table-title">Reward table</h2>
      <ReadState loading={table.loading} error={table.error} what="the reward table" />
      {current && current.rewards.length === 0 && <p>No reward table: no season of this game pays anything.</p>}
      {current && current.rewards.length > 0 && (
        <table>
          <caption>
            Paid on the {current.board} board, set {current.updated_at}
          </caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Reward (base units)</th>
            </tr>
          </thead>
          <tbody>
            {current.rewards.map((row) => (
              <tr key={row.rank}>
                <td>{row.rank}</td>
                <td>{row.amount_base}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={submit} noValidate>
        <Select
          label="Board that pays"
          name="board"
          value={board}
          options={[
            { value: 'wins', label: 'Wins' },
            { value: 'kills', label: 'Kills' },
          ]}
          onValue={(value) => setBoard(value as 'wins' | 'kills')}
        />
        <TextArea
          label="Rewards, one line per rank: rank, then amount in base units"
          name="rewards"
          rows={5}
          value={text}
          onValue={setText}
          error={save.errors.rewards}
        />
        <FormError error={save.errors.form} />
        <Submit busy={save.busy}>Save reward table</Submit>
      </form>
      <Done message={done} />
    </section>
  );
}

function PastSeasons({ api, game }: { api: Api; game: string }) {
  const [type, setType] = useState<1 | 2>(1);
  const seasons = pastSeasons(type, new Date(), type === 1 ? 8 : 6);
  const [range, setRange] = useState(seasons[0]!.range);
  const season = seasons.find((s) => s.range === range) ?? seasons[0]!;
  const history = useRead(
    () => api.GET('/merchant/games/history/rank', { params: { query: { game_code: game, season_type: type, season_range: season.range } } }),
    [game, type, season.range],
  );
  const entries = history.data ?? [];
  return (
    <section aria-labelledby="past-seasons-title">
      <h2 id="past-seasons-title">Past seasons</h2>
      <Select
        label="Season type"
        name="season_type"
        value={String(type)}
        options={[
          { value: '1', label: 'Weeks' },
          { value: '2', label: 'Months' },
        ]}
        onValue={(value) => {
          const next = Number(value) as 1 | 2;
          setType(next);
          setRange(pastSeasons(next, new Date(), 1)[0]!.range);
        }}
      />
      <Select label="Season" name="season_range" value={season.range} options={seasons.map((s) => ({ value: s.range, label: s.label }))} onValue={setRange} />
      <ReadState loading={history.loading} error={history.error} what="the season's rewards" />
      {history.data && entries.length === 0 && <p>Nothing was paid for this season.</p>}
      {entries.length > 0 && (
        <table>
          <caption>Rewards of {season.label}</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col">Score</th>
              <th scope="col">Reward (base units)</th>
              <th scope="col">Claim</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.rank}</td>
                <td class="mono">{entry.platform_player_id}</td>
                <td>{entry.achievement}</td>
                <td>{entry.reward_amount_base}</td>
                <td>{claimStateName(entry.status)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
