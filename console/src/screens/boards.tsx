import { useState } from 'preact/hooks';
import { RewardTableSave } from '../../../core/rewards/models.js';
import { claimStateName, pastSeasons } from '../seasons.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { type Coin, formatAmount, payoutCoinOf, typedAmount } from '../ui/amount.js';
import { AmountField, baseOf, emptyAmount, type TypedAmount } from '../ui/amount-field.js';
import { BoardSelect } from '../ui/board-select.js';
import { Field, FormEnd, Select } from '../ui/field.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';
import { GamePicker } from '../ui/game-picker.js';
import { RewardRows } from '../ui/reward-rows.js';
import { LeagueEditor } from './league.js';

/** One game's current boards, its reward table, its past seasons with what each player was paid and claimed, and its league. */
export function BoardsScreen({ api }: { api: Api }) {
  return (
    <GamePicker api={api}>
      {(game) => (
        <>
          <CurrentBoards api={api} game={game} />
          <GameRewards api={api} game={game} />
          <LeagueEditor api={api} game={game} />
        </>
      )}
    </GamePicker>
  );
}

/** The reward table and the past seasons, both counted in the payout coin the table's answer names. */
function GameRewards({ api, game }: { api: Api; game: string }) {
  const table = useRewardTable(api, game);
  const coin = table.data ? payoutCoinOf(table.data.coin_type) : undefined;
  return (
    <>
      <RewardTableEditor game={game} api={api} table={table} coin={coin} />
      <PastSeasons api={api} game={game} coin={coin} />
    </>
  );
}

/** An amount in the payout coin, or in base units while the coin is not known yet. */
const rewardText = (base: string, coin: Coin | undefined) => (coin ? formatAmount(base, coin) : `${base} base units`);

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

/** A reward row as typed: its rank and its amount (in the coin or its base units). */
type RewardRow = { rank: string; amount: TypedAmount };

/** The next rank to add: one after the highest typed. */
const nextRank = (rows: RewardRow[]) => String(Math.max(0, ...rows.map((row) => Number(row.rank) || 0)) + 1);

const useRewardTable = (api: Api, game: string) => useRead(() => api.GET('/merchant/games/rewards', { params: { query: { game_code: game } } }), [game]);
type TableRead = ReturnType<typeof useRewardTable>;

/** The reward table: which board pays, and a row per rewarded rank (rank, amount in the payout coin). */
function RewardTableEditor({ api, game, table, coin }: { api: Api; game: string; table: TableRead; coin: Coin | undefined }) {
  const current = table.data;
  return (
    <section aria-labelledby="reward-table-title">
      <h2 id="reward-table-title">Reward table</h2>
      <ReadState loading={table.loading} error={table.error} what="the reward table" />
      {current && current.rewards.length === 0 && <p>No reward table: no season of this game pays anything.</p>}
      {current && current.rewards.length > 0 && (
        <RewardRows
          caption={
            <>
              Paid on the {current.board} board, set <Time iso={current.updated_at} />
            </>
          }
          rows={current.rewards}
          amount={(base) => rewardText(base, coin)}
        />
      )}
      {/* The form starts from this game's saved table (a new one per game), so a change is an edit of it. */}
      {current?.game_code === game && coin && <RewardTableForm key={game} api={api} game={game} coin={coin} saved={current} onSaved={table.reload} />}
    </section>
  );
}

function RewardTableForm({
  api,
  game,
  coin,
  saved,
  onSaved,
}: {
  api: Api;
  game: string;
  coin: Coin;
  saved: { board: string; rewards: { rank: number; amount_base: string }[] };
  onSaved: () => void;
}) {
  const [board, setBoard] = useState<'wins' | 'kills'>(saved.board === 'kills' ? 'kills' : 'wins');
  const [rows, setRows] = useState<RewardRow[]>(() =>
    saved.rewards.length > 0
      ? saved.rewards.map((row) => ({ rank: String(row.rank), amount: { text: typedAmount(row.amount_base, coin, 'coin'), unit: 'coin' } }))
      : [{ rank: '1', amount: emptyAmount() }],
  );
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(RewardTableSave, (body) => api.POST('/merchant/games/rewards', { body }));
  const setRow = (index: number, row: Partial<RewardRow>) => setRows(rows.map((r, k) => (k === index ? { ...r, ...row } : r)));
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = {
      game_code: game,
      board,
      rewards: rows.map((row) => ({ rank: row.rank.trim() ? Number(row.rank) : Number.NaN, amount: baseOf(row.amount, coin) })),
    };
    if (await save.submit(body)) {
      setDone('Reward table saved: it pays the seasons that end from now on.');
      onSaved();
    }
  };
  const rowError = (index: number, field: 'rank' | 'amount') => save.errors[`rewards.${index}.${field}`];
  const rowInvalid = Object.keys(save.errors).some((key) => key.startsWith('rewards.'));
  const listError = rowInvalid ? 'Some rows are not valid: see the marked fields.' : save.errors.rewards;
  return (
    <>
      <h3>Set the reward table</h3>
      <form onSubmit={submit} noValidate>
        <BoardSelect label="Board that pays" name="board" value={board} onValue={setBoard} />
        <fieldset aria-describedby={listError ? 'rewards-error' : undefined}>
          <legend>Rewards by rank, in {coin.baseOnly ? `base units of ${coin.symbol}` : coin.symbol}</legend>
          {listError && (
            <p class="error" id="rewards-error">
              {listError}
            </p>
          )}
          <table class="rows">
            <caption class="visually-hidden">The reward of each rank</caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Reward</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={index}>
                  <td>
                    <Field
                      label={`Rank of row ${index + 1}`}
                      labelHidden
                      name={`rank-${index}`}
                      inputMode="numeric"
                      value={row.rank}
                      onValue={(rank) => setRow(index, { rank })}
                      error={rowError(index, 'rank')}
                    />
                  </td>
                  <td>
                    <AmountField
                      label={`Reward of row ${index + 1}`}
                      labelHidden
                      name={`amount-${index}`}
                      coin={coin}
                      value={row.amount}
                      onValue={(amount) => setRow(index, { amount })}
                      error={rowError(index, 'amount')}
                    />
                  </td>
                  <td>
                    <button type="button" class="quiet" onClick={() => setRows(rows.filter((_, k) => k !== index))} disabled={rows.length === 1}>
                      Remove row {index + 1}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => setRows([...rows, { rank: nextRank(rows), amount: emptyAmount(rows.at(-1)?.amount.unit) }])}>
            Add a rank
          </button>
        </fieldset>
        <FormEnd busy={save.busy} error={save.errors.form} done={done}>
          Save reward table
        </FormEnd>
      </form>
    </>
  );
}

function PastSeasons({ api, game, coin }: { api: Api; game: string; coin: Coin | undefined }) {
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
              <th scope="col">Reward</th>
              <th scope="col">Claim</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.rank}</td>
                <td class="mono">{entry.platform_player_id}</td>
                <td>{entry.achievement}</td>
                <td>{rewardText(entry.reward_amount_base, coin)}</td>
                <td>{claimStateName(entry.status)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
