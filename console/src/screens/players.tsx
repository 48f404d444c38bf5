import { useState } from 'preact/hooks';
import { PlayerTicketsGrant } from '../../../core/payments/models.js';
import type { Payload } from '@game-platform/client';
import type { Api } from '../session.js';
import { useAction, useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd, Select } from '../ui/field.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

/** What player_view answers (core/payments/models.ts PlayerView). */
type PlayerView = Payload<Awaited<ReturnType<typeof viewPlayer>>['data'] & {}>;
const viewPlayer = (api: Api, query: { user_id?: string; address?: string; ledger_cursor?: string }) =>
  api.GET('/merchant/players/view', { params: { query } });

const ORDER_STATES = ['pending', 'paid', 'cancelled', 'refunded'];
const ADDRESS = /^0x[0-9a-fA-F]{64}$/;

/** A studio looks a player up (by user id or Sui address) and grants or takes back tickets with a reason. */
export function PlayersScreen({ api }: { api: Api }) {
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<PlayerView>();
  const [ledgerCursor, setLedgerCursor] = useState<string>();
  const lookup = useAction((who: string, cursor?: string) =>
    viewPlayer(api, { ...(ADDRESS.test(who) ? { address: who.toLowerCase() } : { user_id: who }), ...(cursor ? { ledger_cursor: cursor } : {}) }),
  );
  const show = async (who: string, cursor?: string) => {
    const view = await lookup.run(who, cursor);
    if (view) {
      setFound(view);
      setLedgerCursor(cursor);
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    setFound(undefined);
    void show(typed.trim());
  };
  return (
    <>
      <section aria-labelledby="player-lookup-title">
        <h2 id="player-lookup-title">Look a player up</h2>
        <form onSubmit={submit} noValidate>
          <Field
            label="User id or Sui address"
            name="player"
            hint="The player's platform user id, or their wallet's address (0x and 64 hex digits)"
            value={typed}
            onValue={setTyped}
            error={lookup.errors.user_id ?? lookup.errors.address}
          />
          <FormEnd busy={lookup.busy} error={lookup.errors.form}>
            Look up
          </FormEnd>
        </form>
      </section>
      {found && (
        <PlayerDetails
          api={api}
          view={found}
          ledgerCursor={ledgerCursor}
          onLedgerPage={(cursor) => void show(found.user_id, cursor)}
          onChanged={() => void show(found.user_id)}
        />
      )}
    </>
  );
}

function PlayerDetails({
  api,
  view,
  ledgerCursor,
  onLedgerPage,
  onChanged,
}: {
  api: Api;
  view: PlayerView;
  ledgerCursor: string | undefined;
  onLedgerPage: (cursor: string | undefined) => void;
  onChanged: () => void;
}) {
  return (
    <>
      <section aria-labelledby="player-balances-title">
        <h2 id="player-balances-title">
          Player <span class="mono">{view.user_id}</span>
        </h2>
        <p>
          Wallet address: <span class="mono">{view.address ?? 'none'}</span>
        </p>
        <h3>Ticket balances</h3>
        {view.balances.length === 0 ? (
          <p>No tickets in your projects.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Ticket balances per project and level</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Level</th>
                <th scope="col">Balance</th>
              </tr>
            </thead>
            <tbody>
              {view.balances.map((b) => (
                <tr key={`${b.project_name}#${b.level}`}>
                  <td>{b.project_name}</td>
                  <td>{b.level}</td>
                  <td>{b.balance}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <GrantForm api={api} userId={view.user_id} onGranted={onChanged} />
      <section aria-labelledby="player-ledger-title">
        <h2 id="player-ledger-title">Ticket ledger</h2>
        {view.ledger.items.length === 0 ? (
          <p>No changes on this page.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Changes of the player's balances</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Project</th>
                <th scope="col">Level</th>
                <th scope="col">Change</th>
                <th scope="col">Reason or operation</th>
                <th scope="col">Balance after</th>
              </tr>
            </thead>
            <tbody>
              {view.ledger.items.map((line) => (
                <tr key={line.ref}>
                  <td>
                    <Time iso={line.created_at} />
                  </td>
                  <td>{line.project_name}</td>
                  <td>{line.level}</td>
                  <td>{line.change > 0 ? `+${line.change}` : line.change}</td>
                  <td>{line.reason ?? line.operation}</td>
                  <td>{line.balance_after ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div class="pager">
          {ledgerCursor && (
            <button type="button" onClick={() => onLedgerPage(undefined)}>
              First changes
            </button>
          )}
          {view.ledger.next && (
            <button type="button" onClick={() => onLedgerPage(view.ledger.next ?? undefined)}>
              More changes
            </button>
          )}
        </div>
      </section>
      <section aria-labelledby="player-orders-title">
        <h2 id="player-orders-title">Recharge orders</h2>
        {view.orders.items.length === 0 ? (
          <p>No orders in your projects.</p>
        ) : (
          <table>
            <caption class="visually-hidden">The player's recharge orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Bill</th>
                <th scope="col">Project</th>
                <th scope="col">Level</th>
                <th scope="col">Price (base units)</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {view.orders.items.map((order) => (
                <tr key={order.id}>
                  <td>{order.bill_no}</td>
                  <td>{order.project_name}</td>
                  <td>{order.level}</td>
                  <td>{order.amount_base}</td>
                  <td>{ORDER_STATES[order.status] ?? order.status}</td>
                  <td>
                    <Time iso={order.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="player-scores-title">
        <h2 id="player-scores-title">Scores on current boards</h2>
        {view.scores.length === 0 ? (
          <p>No scores on your games' current boards.</p>
        ) : (
          <table>
            <caption class="visually-hidden">The player's kills and wins this week and month</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Season</th>
                <th scope="col">Kills</th>
                <th scope="col">Wins</th>
              </tr>
            </thead>
            <tbody>
              {view.scores.map((s) => (
                <tr key={`${s.game_code}#${s.season_type}`}>
                  <td>{s.game_code}</td>
                  <td>
                    {s.season_type === 1 ? 'Week' : 'Month'} {s.season_range}
                  </td>
                  <td>{s.kills}</td>
                  <td>{s.wins}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/**
 * Grant or take back tickets. Each submitted form gets one Idempotency-Key, made when it is first sent and sent
 * again by a retry of the same submission (after an error, the same values): the service applies it once. Changing
 * a value makes the next send a new grant, with a new key.
 */
function GrantForm({ api, userId, onGranted }: { api: Api; userId: string; onGranted: () => void }) {
  const projectList = useRead(() => api.GET('/merchant/projects'), []);
  const projects = (projectList.data ?? []).map((p) => p.project_name);
  const [values, setValues] = useState({ project: '', level: '', direction: 'grant', amount: '', reason: '' });
  const project = values.project || projects[0] || '';
  const levels = useRead(
    () =>
      project
        ? api.GET('/account/user/project/level', { params: { query: { project } } })
        : // No project yet: no levels (an empty list in the list envelope, which unwrap reads as an empty list).
          Promise.resolve({ data: { data: [], statusCode: 200, message: 'success', totalPage: 0 } as never, response: new Response() }),
    [project],
  );
  const levelList = (levels.data ?? []).map((l) => String(l.level));
  const level = values.level || levelList[0] || '';
  const [key, setKey] = useState<{ key: string; sent: string }>();
  const [done, setDone] = useState<string>();
  const grant = useCheckedAction(PlayerTicketsGrant, (body) => {
    const sent = JSON.stringify(body);
    const current = key && key.sent === sent ? key : { key: crypto.randomUUID(), sent };
    setKey(current);
    return api.POST('/merchant/players/tickets', { body, headers: { 'Idempotency-Key': current.key } });
  });
  const set = (field: keyof typeof values) => (value: string) => {
    setDone(undefined);
    setValues({ ...values, [field]: value });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const amount = Number(values.amount);
    const body = {
      userId,
      projectName: project,
      level: Number(level),
      amount: values.direction === 'grant' ? amount : -amount,
      reason: values.reason,
    };
    if (await grant.submit(body)) {
      setKey(undefined);
      setDone(`${values.direction === 'grant' ? 'Granted' : 'Took back'} ${amount} tickets of ${project} level ${level}.`);
      setValues({ ...values, amount: '', reason: '' });
      onGranted();
    }
  };
  return (
    <section aria-labelledby="player-grant-title">
      <h2 id="player-grant-title">Grant or take back tickets</h2>
      <ReadState loading={projectList.loading} error={projectList.error} what="your projects" />
      <form onSubmit={submit} noValidate>
        <Select
          label="Project"
          name="grant-project"
          value={project}
          options={projects.map((p) => ({ value: p, label: p }))}
          onValue={(value) => setValues({ ...values, project: value, level: '' })}
          error={grant.errors.projectName}
        />
        <Select
          label="Level"
          name="grant-level"
          value={level}
          options={levelList.map((l) => ({ value: l, label: `Level ${l}` }))}
          onValue={set('level')}
          error={grant.errors.level}
        />
        <Select
          label="Change"
          name="grant-direction"
          value={values.direction}
          options={[
            { value: 'grant', label: 'Grant tickets' },
            { value: 'take', label: 'Take tickets back' },
          ]}
          onValue={set('direction')}
        />
        <Field label="Tickets" name="grant-amount" inputMode="numeric" value={values.amount} onValue={set('amount')} error={grant.errors.amount} />
        <Field
          label="Reason"
          name="grant-reason"
          hint="Kept on the ledger entry (1-200 characters)"
          value={values.reason}
          onValue={set('reason')}
          error={grant.errors.reason}
        />
        <FormEnd busy={grant.busy} error={grant.errors.form ?? grant.errors.userId} done={done}>
          {values.direction === 'grant' ? 'Grant tickets' : 'Take tickets back'}
        </FormEnd>
      </form>
    </section>
  );
}
