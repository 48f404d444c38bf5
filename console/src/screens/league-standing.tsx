import { useState } from 'preact/hooks';
import type { Payload } from '@game-platform/client';
import { StandingQuery } from '../../../core/leagues/models.js';
import { errorsOfSchema } from '../errors.js';
import type { Api } from '../session.js';
import { formatAmount, payoutCoinOf } from '../ui/amount.js';
import { useRead } from '../ui/call.js';
import { Field, FormEnd } from '../ui/field.js';
import { RewardRows } from '../ui/reward-rows.js';
import { ReadState } from '../ui/status.js';

const readStanding = (api: Api, game: string, player: string) =>
  api.GET('/merchant/games/league/standing', { params: { query: { game_code: game, game_player_id: player } } });

/** What league_standing answers (core/leagues/models.ts LeagueStanding). */
type Standing = Payload<Awaited<ReturnType<typeof readStanding>>['data'] & {}>;

/** A player's standing in the game's current league season: their tier, and once placed their cohort's board. */
export function LeagueStanding({ api, game }: { api: Api; game: string }) {
  const [typed, setTyped] = useState('');
  const [invalid, setInvalid] = useState<string>();
  // Numbered, so asking again for the same player reads again (the board moves with each report).
  const [asked, setAsked] = useState<{ player: string; round: number }>();
  const submit = (event: Event) => {
    event.preventDefault();
    const query = { game_code: game, game_player_id: typed };
    const errors = errorsOfSchema(StandingQuery, query);
    setInvalid(errors && (errors.game_player_id ?? Object.values(errors)[0]));
    if (!errors) setAsked({ player: StandingQuery.parse(query).game_player_id, round: (asked?.round ?? 0) + 1 });
  };
  return (
    <section aria-labelledby="league-standing-title">
      <h3 id="league-standing-title">A player's standing</h3>
      <form onSubmit={submit} noValidate>
        <Field
          label="Player id"
          name="standing-player"
          hint="The id the game reports the player's scores with (their platform user id, or the game's own id for them)"
          value={typed}
          onValue={setTyped}
          error={invalid}
        />
        <FormEnd busy={false}>Show standing</FormEnd>
      </form>
      {asked && <StandingOf key={`${asked.player}\u0000${asked.round}`} api={api} game={game} player={asked.player} />}
    </section>
  );
}

function StandingOf({ api, game, player }: { api: Api; game: string; player: string }) {
  const standing = useRead(() => readStanding(api, game, player), [game, player]);
  if (standing.code === 'league.not_running') return <p role="status">{game} runs no league this season: a league set now starts with the next season.</p>;
  return (
    <>
      <ReadState loading={standing.loading} error={standing.error} what="the player's standing" />
      {standing.data && <StandingDetails standing={standing.data} />}
    </>
  );
}

const seasonName = (type: number, range: string) => `${type === 1 ? 'week' : 'month'} ${range}`;

function StandingDetails({ standing }: { standing: Standing }) {
  const coin = payoutCoinOf(standing.coin_type);
  return (
    <>
      <dl class="record">
        <dt>Player</dt>
        <dd class="mono">{standing.game_player_id}</dd>
        <dt>Placed</dt>
        <dd>{standing.placed ? `yes, rank ${standing.rank} with ${standing.total}` : 'no'}</dd>
        <dt>Tier</dt>
        <dd>
          {standing.tier}. {standing.tier_name} (of {standing.tiers}; {standing.promote} move up, {standing.demote} down)
        </dd>
        <dt>Season</dt>
        <dd>{seasonName(standing.season_type, standing.season_range)}</dd>
      </dl>
      {standing.placed ? (
        <table>
          <caption>
            Cohort board on {standing.board} ({standing.players.length} players)
          </caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {standing.players.map((row) => {
              const asked = row.game_player_id === standing.game_player_id;
              return (
                <tr key={row.game_player_id} class={asked ? 'asked' : undefined} aria-current={asked ? 'true' : undefined}>
                  <td>{row.rank}</td>
                  <td>
                    {row.game_player_name || row.game_player_id}
                    {asked && ' (this player)'}
                  </td>
                  <td>{row.total}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p>Not placed yet: the player's first score of this season places them in a cohort of their tier, a moment after it is reported.</p>
      )}
      {standing.rewards.length === 0 ? (
        <p>No rank of this tier's cohorts is paid.</p>
      ) : (
        <RewardRows caption={`What each rank of a ${standing.tier_name} cohort pays`} rows={standing.rewards} amount={(base) => formatAmount(base, coin)} />
      )}
    </>
  );
}
