import { useState } from 'preact/hooks';
import { lastRunOutcome } from '../job-runs.js';
import type { Api } from '../session.js';
import { useAction, useRead } from '../ui/call.js';
import { Field, FormError, Select, Submit } from '../ui/field.js';
import { suiOfMist } from '../ui/gas.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

type Environment = 'Production' | 'Sandbox';

/**
 * Admins: the stage's money of the last days, its scheduled jobs, the gas its sponsor paid for games' claims, and
 * the App Store's notifications reaching it.
 */
export function AdminStageScreen({ api }: { api: Api }) {
  return (
    <>
      <Overview api={api} />
      <SponsoredGas api={api} />
      <AppStoreTest api={api} />
    </>
  );
}

const JOB_NAMES: Record<string, string> = {
  indexer: 'Chain indexer',
  settlement: 'Season settlement',
  deletions: 'Account deletions',
  'rank-pages': 'Rank heads (stream)',
  'rank-snapshots': 'Rank snapshots',
};

function Overview({ api }: { api: Api }) {
  const [days, setDays] = useState('14');
  const overview = useRead(() => api.GET('/merchant/admin/overview', { params: { query: { days: Number(days) } } }), [days]);
  const data = overview.data;
  return (
    <>
      <section aria-labelledby="money-title">
        <h2 id="money-title">Orders and tickets per day</h2>
        <Select
          label="Days shown"
          name="days"
          value={days}
          options={['7', '14', '31'].map((n) => ({ value: n, label: `The last ${n} days` }))}
          onValue={setDays}
        />
        <ReadState loading={overview.loading} error={overview.error} what="the overview" />
        {data && (
          <table>
            <caption>Per UTC day, newest first (about: a count can be lost when a process stops between a payment and its count)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Orders created</th>
                <th scope="col">Orders paid</th>
                <th scope="col">Tickets credited</th>
                <th scope="col">Tickets spent</th>
              </tr>
            </thead>
            <tbody>
              {[...data.days].reverse().map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td>{day.orders_created}</td>
                  <td>{day.orders_paid}</td>
                  <td>{day.tickets_credited}</td>
                  <td>{day.tickets_spent}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="jobs-title">
        <h2 id="jobs-title">Scheduled jobs</h2>
        {data && (
          <table>
            <caption class="visually-hidden">The scheduled jobs' last runs and failures</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Last run</th>
                <th scope="col">Outcome</th>
                <th scope="col">Last success</th>
                <th scope="col">Failed runs</th>
              </tr>
            </thead>
            <tbody>
              {data.jobs.map((job) => (
                <tr key={job.job}>
                  <th scope="row">{JOB_NAMES[job.job] ?? job.job}</th>
                  <td>
                    <Time iso={job.last_run?.ended_at} none="never" />
                  </td>
                  <td>{lastRunOutcome(job.last_run)}</td>
                  <td>
                    <Time iso={job.last_success_at} none="never" />
                  </td>
                  <td>
                    {job.failures.length === 0
                      ? 'none'
                      : job.failures.map((failure) => (
                          <div key={failure.at}>
                            <Time iso={failure.at} />: {failure.error.code}
                          </div>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** Each game's sponsored claims of one UTC day, the gas budgets signed for them and the gas their claims paid on chain cost, most gas first as the service answers. */
function SponsoredGas({ api }: { api: Api }) {
  const [day, setDay] = useState(() => new Date().toISOString().slice(0, 10));
  // A cleared date input asks for no day: the service answers its today.
  const query = /^\d{4}-\d{2}-\d{2}$/.test(day) ? { day } : {};
  const sponsored = useRead(() => api.GET('/merchant/admin/sponsorship', { params: { query } }), [query.day]);
  const data = sponsored.data;
  return (
    <section aria-labelledby="sponsored-gas-title">
      <h2 id="sponsored-gas-title">Sponsored gas</h2>
      <Field label="Day (UTC)" name="sponsored-day" type="date" value={day} onValue={setDay} />
      <ReadState loading={sponsored.loading} error={sponsored.error} what="the sponsored claims" />
      {data && data.games.length === 0 && <p>No claims were sponsored on {data.day}.</p>}
      {data && data.games.length > 0 && (
        <table>
          <caption>
            Sponsored claims of {data.day}, most gas first (budgets: the most they can cost the sponsor; spent: what the claims seen paid on chain cost it)
          </caption>
          <thead>
            <tr>
              <th scope="col">Game</th>
              <th scope="col">Claims</th>
              <th scope="col">Gas budgets</th>
              <th scope="col">Gas spent</th>
            </tr>
          </thead>
          <tbody>
            {data.games.map((game) => (
              <tr key={game.game_code}>
                <th scope="row">{game.game_code}</th>
                <td>{game.claims}</td>
                <td>{suiOfMist(game.gas)}</td>
                <td>{suiOfMist(game.gas_spent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Asks Apple to send the stage a test notification, then whether it was delivered and received: the first
 * call starts one, "Check again" asks about the same one.
 */
function AppStoreTest({ api }: { api: Api }) {
  const [environment, setEnvironment] = useState<Environment>('Sandbox');
  const test = useAction((body: { environment: Environment; testNotificationToken?: string }) => api.POST('/pay/apple/test-notification', { body }));
  const [answer, setAnswer] = useState<{ token: string; status: string; received: boolean; attempts: number }>();
  const send = async (token?: string) => {
    const result = await test.run({ environment, ...(token ? { testNotificationToken: token } : {}) });
    if (result) setAnswer({ token: result.testNotificationToken, status: result.status, received: result.received, attempts: result.sendAttempts.length });
  };
  return (
    <section aria-labelledby="app-store-test-title">
      <h2 id="app-store-test-title">App Store notifications</h2>
      <p>Asks the App Store to send this stage a test notification, to check that its server notifications reach it.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
        noValidate
      >
        <Select
          label="App Store environment"
          name="environment"
          value={environment}
          options={[
            { value: 'Sandbox', label: 'Sandbox' },
            { value: 'Production', label: 'Production' },
          ]}
          onValue={(value) => setEnvironment(value as Environment)}
        />
        <FormError error={test.errors.form ?? test.errors.environment} />
        <Submit busy={test.busy}>Send a test notification</Submit>
      </form>
      {answer && (
        <div role="status">
          <p>
            Test notification {answer.token}: {answer.status}, {answer.attempts} delivery attempt{answer.attempts === 1 ? '' : 's'},{' '}
            {answer.received ? 'received by this stage' : 'not received yet'}.
          </p>
          <button type="button" onClick={() => send(answer.token)} disabled={test.busy}>
            Check again
          </button>
        </div>
      )}
    </section>
  );
}
