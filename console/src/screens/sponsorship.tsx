import { useState } from 'preact/hooks';
import type { Payload } from '@game-platform/client';
import { SponsorshipSave } from '../../../core/sponsorship/models.js';
import type { FieldErrors } from '../errors.js';
import type { Api } from '../session.js';
import { SUI } from '../ui/amount.js';
import { AmountField, baseOf, emptyAmount, type TypedAmount } from '../ui/amount-field.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd } from '../ui/field.js';
import { suiOfMist } from '../ui/gas.js';
import { GamePicker } from '../ui/game-picker.js';
import { ReadState } from '../ui/status.js';

const readSponsorship = (api: Api, game: string) => api.GET('/merchant/games/sponsorship', { params: { query: { game_code: game } } });

/** What sponsorship_get and sponsorship_set answer (core/sponsorship/models.ts Sponsorship). */
type Sponsorship = Payload<Awaited<ReturnType<typeof readSponsorship>>['data'] & {}>;

const UNCONFIGURED =
  "This stage sponsors no claims: it has no gas sponsor key, so players pay their claims' gas themselves. The platform's operators can set one.";

/** One game's sponsored claims: the claim function sponsored, its daily limits and the stage's, today's use, and the form that sets them. */
export function SponsorshipScreen({ api }: { api: Api }) {
  return (
    <GamePicker api={api}>
      {/* A new key for each game: its form starts from that game's sponsorship. */}
      {(game) => <SponsoredClaims key={game} api={api} game={game} />}
    </GamePicker>
  );
}

function SponsoredClaims({ api, game }: { api: Api; game: string }) {
  const sponsorship = useRead(() => readSponsorship(api, game), [game]);
  const data = sponsorship.data;
  return (
    <section aria-labelledby="sponsorship-title">
      <h2 id="sponsorship-title">Sponsorship of {game}</h2>
      <p>The stage pays the gas of a player's reward claim when the claim calls the game's claim function, within the daily limits below.</p>
      {sponsorship.code === 'sponsor.unconfigured' ? (
        <p role="status">{UNCONFIGURED}</p>
      ) : (
        <ReadState loading={sponsorship.loading} error={sponsorship.error} what="the sponsorship" />
      )}
      {data?.game_code === game && (
        <>
          <SponsorshipState sponsorship={data} />
          <SponsorshipForm api={api} game={game} saved={data} onSaved={sponsorship.reload} />
        </>
      )}
    </section>
  );
}

function SponsorshipState({ sponsorship }: { sponsorship: Sponsorship }) {
  const { target, stage, today } = sponsorship;
  return (
    <>
      <dl class="record">
        <dt>Claim function</dt>
        <dd class={target ? 'mono' : undefined}>{target ?? 'not sponsored'}</dd>
        <dt>Today (UTC)</dt>
        <dd>
          {today.count} claim{today.count === 1 ? '' : 's'} sponsored, {suiOfMist(today.gas)} of gas budgets (the most they can cost),{' '}
          {suiOfMist(today.gas_spent)} spent by those paid on chain
        </dd>
      </dl>
      <table>
        <caption>Daily limits, for all the game's players together (UTC days)</caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">In force</th>
            <th scope="col">The stage's</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Claims a day</th>
            <td>{sponsorship.daily_count}</td>
            <td>{stage.daily_count}</td>
          </tr>
          <tr>
            <th scope="row">Gas a day</th>
            <td>{suiOfMist(sponsorship.daily_gas)}</td>
            <td>{suiOfMist(stage.daily_gas)}</td>
          </tr>
          <tr>
            <th scope="row">Gas of one claim</th>
            <td>{suiOfMist(stage.gas_cap)}</td>
            <td>{suiOfMist(stage.gas_cap)}</td>
          </tr>
        </tbody>
      </table>
    </>
  );
}

/**
 * The service names the field a limit above the stage's is about first (`daily_count: at most the stage's 1000`),
 * without the `body.` that errorsOfAnswer places beside a field: its message goes beside that field here.
 */
function besideFields(errors: FieldErrors): FieldErrors {
  const named = /^(target|daily_count|daily_gas): (.*)$/s.exec(errors.form ?? '');
  return named ? { [named[1]!]: named[2]! } : errors;
}

/** The service's 503 for a stage without a sponsor, said as what it means for the studio. */
async function unconfiguredSaid<Answer extends { error?: unknown }>(call: Promise<Answer>): Promise<Answer> {
  const answer = await call;
  if ((answer.error as { error?: unknown } | undefined)?.error === 'sponsor.unconfigured') throw new Error(UNCONFIGURED);
  return answer;
}

/** A game's own limit as the form starts from it: empty where the stage's is in force. */
const ownLimit = (inForce: string, stages: string) => (inForce === stages ? '' : inForce);

function SponsorshipForm({ api, game, saved, onSaved }: { api: Api; game: string; saved: Sponsorship; onSaved: () => void }) {
  const [target, setTarget] = useState(saved.target ?? '');
  const [dailyCount, setDailyCount] = useState(ownLimit(String(saved.daily_count), String(saved.stage.daily_count)));
  const [dailyGas, setDailyGas] = useState<TypedAmount>(() => {
    const own = ownLimit(saved.daily_gas, saved.stage.daily_gas);
    return own ? { text: own, unit: 'base' } : emptyAmount();
  });
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(SponsorshipSave, (body) => unconfiguredSaid(api.POST('/merchant/games/sponsorship', { body })));
  const errors = besideFields(save.errors);
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    // An empty limit is not sent: the stage's applies.
    const body = {
      game_code: game,
      target: target.trim(),
      ...(dailyCount.trim() ? { daily_count: Number(dailyCount) } : {}),
      ...(dailyGas.text.trim() ? { daily_gas: baseOf(dailyGas, SUI) } : {}),
    };
    if (await save.submit(body)) {
      setDone('Sponsorship saved: it applies to the next claim.');
      onSaved();
    }
  };
  return (
    <>
      <h3>Set the sponsorship</h3>
      <p>A limit left empty is the stage's; one of the game's own may only be lower.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Claim function"
          name="target"
          hint="package::module::function, such as 0x…::verifier::redeem: the function the game's verifier pays claims with"
          value={target}
          onValue={setTarget}
          error={errors.target}
        />
        <Field
          label="Claims a day"
          name="daily_count"
          inputMode="numeric"
          hint={`Empty: the stage's ${saved.stage.daily_count}`}
          value={dailyCount}
          onValue={setDailyCount}
          error={errors.daily_count}
        />
        <AmountField label="Gas a day" name="daily_gas" coin={SUI} value={dailyGas} onValue={setDailyGas} error={errors.daily_gas} />
        <FormEnd busy={save.busy} error={errors.form} done={done}>
          Save sponsorship
        </FormEnd>
      </form>
    </>
  );
}
