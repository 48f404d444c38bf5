import { useState } from 'preact/hooks';
import { LeagueRulesSave } from '../../../core/leagues/models.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { BoardSelect } from '../ui/board-select.js';
import { Field, FormEnd, Select } from '../ui/field.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';
import { LeagueStanding } from './league-standing.js';

/** A tier as typed: its name, how many move up and down, and its rewards as `rank: base units` pairs. */
type TierRow = { name: string; promote: string; demote: string; rewards: string };

type Rules = {
  board: string;
  season_type: number;
  cohort_size: number;
  idle_drop: number;
  start_tier: number;
  tiers: { tier: number; name: string; promote: number; demote: number; rewards: { rank: number; amount_base: string }[] }[];
  from: string;
};

const useLeague = (api: Api, game: string) => useRead(() => api.GET('/merchant/games/league', { params: { query: { game_code: game } } }), [game]);

const rewardsText = (rewards: { rank: number; amount_base: string }[]) => rewards.map((row) => `${row.rank}: ${row.amount_base}`).join(', ');

/** `1: 500, 2: 200` as reward rows; a pair that is not `rank: amount` becomes a row the schema refuses, naming it. */
const parsedRewards = (text: string) =>
  text
    .split(/[,\n]/)
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [rank, amount, ...rest] = pair.split(':').map((part) => part.trim());
      return { rank: rest.length === 0 && rank ? Number(rank) : Number.NaN, amount: amount ? amount.replaceAll(',', '') : '' };
    });

const count = (text: string) => (text.trim() ? Number(text) : 0);

/**
 * The game's league: the rules in force and a change waiting for the next season, a player's standing, and the
 * form that sets the rules.
 */
export function LeagueEditor({ api, game }: { api: Api; game: string }) {
  const league = useLeague(api, game);
  const data = league.data;
  return (
    <section aria-labelledby="league-title">
      <h2 id="league-title">League</h2>
      <ReadState loading={league.loading} error={league.error} what="the league" />
      {data && !data.current && !data.next && <p>No league: set one below; it starts with the next season.</p>}
      {data?.current && <RulesTable caption="This season's league" rules={data.current} coin={data.coin_type} />}
      {data?.next && <RulesTable caption="From the next season" rules={data.next} coin={data.coin_type} />}
      <LeagueStanding key={game} api={api} game={game} />
      {data?.game_code === game && <LeagueForm key={game} api={api} game={game} saved={data.next ?? data.current} onSaved={league.reload} />}
    </section>
  );
}

function RulesTable({ caption, rules, coin }: { caption: string; rules: Rules; coin: string }) {
  return (
    <table>
      <caption>
        {caption}: {rules.season_type === 1 ? 'weekly' : 'monthly'} from <Time iso={rules.from} />, cohorts of {rules.cohort_size} on the {rules.board} board,
        idle players drop {rules.idle_drop}
      </caption>
      <thead>
        <tr>
          <th scope="col">Tier</th>
          <th scope="col">Up</th>
          <th scope="col">Down</th>
          <th scope="col">Rewards (rank: base units of {coin.split('::').at(-1)})</th>
        </tr>
      </thead>
      <tbody>
        {rules.tiers.map((tier) => (
          <tr key={tier.tier}>
            <td>
              {tier.tier}. {tier.name}
            </td>
            <td>{tier.promote}</td>
            <td>{tier.demote}</td>
            <td>{tier.rewards.length > 0 ? rewardsText(tier.rewards) : 'none'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LeagueForm({ api, game, saved, onSaved }: { api: Api; game: string; saved: Rules | null; onSaved: () => void }) {
  const [board, setBoard] = useState<'wins' | 'kills'>(saved?.board === 'kills' ? 'kills' : 'wins');
  const [seasonType, setSeasonType] = useState(String(saved?.season_type ?? 1));
  const [cohortSize, setCohortSize] = useState(String(saved?.cohort_size ?? 50));
  const [idleDrop, setIdleDrop] = useState(String(saved?.idle_drop ?? 1));
  const [startTier, setStartTier] = useState(String(saved?.start_tier ?? 1));
  const [tiers, setTiers] = useState<TierRow[]>(() =>
    saved
      ? saved.tiers.map((tier) => ({ name: tier.name, promote: String(tier.promote), demote: String(tier.demote), rewards: rewardsText(tier.rewards) }))
      : [
          { name: 'Bronze', promote: '5', demote: '0', rewards: '' },
          { name: 'Silver', promote: '0', demote: '5', rewards: '' },
        ],
  );
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(LeagueRulesSave, (body) => api.POST('/merchant/games/league', { body }));
  const setTier = (index: number, row: Partial<TierRow>) => setTiers(tiers.map((t, k) => (k === index ? { ...t, ...row } : t)));
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = {
      game_code: game,
      board,
      season_type: Number(seasonType),
      cohort_size: count(cohortSize),
      idle_drop: count(idleDrop),
      start_tier: count(startTier),
      tiers: tiers.map((tier) => ({ name: tier.name.trim(), promote: count(tier.promote), demote: count(tier.demote), rewards: parsedRewards(tier.rewards) })),
    };
    if (await save.submit(body)) {
      setDone('League saved: it applies from the next season; the current one keeps its rules.');
      onSaved();
    }
  };
  const tierError = (index: number, field: keyof TierRow) =>
    Object.entries(save.errors).find(([key]) => key === `tiers.${index}.${field}` || (field === 'rewards' && key.startsWith(`tiers.${index}.rewards`)))?.[1];
  return (
    <>
      <h3>Set the league</h3>
      <form onSubmit={submit} noValidate>
        <BoardSelect label="Board it ranks on" name="league-board" value={board} onValue={setBoard} />
        <Select
          label="Season"
          name="league-season"
          value={seasonType}
          options={[
            { value: '1', label: 'Weekly' },
            { value: '2', label: 'Monthly' },
          ]}
          onValue={setSeasonType}
        />
        <Field label="Cohort size (10-100)" name="cohort_size" inputMode="numeric" value={cohortSize} onValue={setCohortSize} error={save.errors.cohort_size} />
        <Field label="Tiers an idle player drops" name="idle_drop" inputMode="numeric" value={idleDrop} onValue={setIdleDrop} error={save.errors.idle_drop} />
        <Field
          label="Tier a new player starts in"
          name="start_tier"
          inputMode="numeric"
          value={startTier}
          onValue={setStartTier}
          error={save.errors.start_tier}
        />
        <fieldset>
          <legend>Tiers, lowest first</legend>
          {save.errors.tiers && <p class="error">{save.errors.tiers}</p>}
          {tiers.map((tier, index) => (
            <fieldset key={index} class="tier">
              <legend>Tier {index + 1}</legend>
              <Field
                label={`Name of tier ${index + 1}`}
                name={`tier-name-${index}`}
                value={tier.name}
                onValue={(name) => setTier(index, { name })}
                error={tierError(index, 'name')}
              />
              <Field
                label={`Moving up from tier ${index + 1}`}
                name={`tier-promote-${index}`}
                inputMode="numeric"
                value={tier.promote}
                onValue={(promote) => setTier(index, { promote })}
                error={tierError(index, 'promote')}
              />
              <Field
                label={`Moving down from tier ${index + 1}`}
                name={`tier-demote-${index}`}
                inputMode="numeric"
                value={tier.demote}
                onValue={(demote) => setTier(index, { demote })}
                error={tierError(index, 'demote')}
              />
              <Field
                label={`Rewards of tier ${index + 1}`}
                name={`tier-rewards-${index}`}
                hint="rank: base units, separated by commas (1: 500, 2: 200)"
                value={tier.rewards}
                onValue={(rewards) => setTier(index, { rewards })}
                error={tierError(index, 'rewards')}
              />
              <button type="button" class="quiet" onClick={() => setTiers(tiers.filter((_, k) => k !== index))} disabled={tiers.length === 1}>
                Remove tier {index + 1}
              </button>
            </fieldset>
          ))}
          <button type="button" onClick={() => setTiers([...tiers, { name: '', promote: '0', demote: '0', rewards: '' }])} disabled={tiers.length >= 10}>
            Add a tier
          </button>
        </fieldset>
        <FormEnd busy={save.busy} error={save.errors.form} done={done}>
          Save league
        </FormEnd>
      </form>
    </>
  );
}
