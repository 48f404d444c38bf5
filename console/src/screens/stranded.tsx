import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useAction, useRead } from '../ui/call.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Field, FormError, Select } from '../ui/field.js';
import { Pager } from '../ui/pager.js';
import { type Coin, formatAmount } from '../ui/amount.js';
import { Done, ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

const PAGE_SIZE = 10;
const STATES = ['stranded', 'credited', 'refunded'] as const;

/**
 * Payments on chain that matched no open order of one project: each is settled by crediting its order's tickets
 * or by recording the refund paid on chain, both after a confirmation.
 */
export function StrandedPayments({ api, projects, coins }: { api: Api; projects: string[]; coins: Record<string, Coin> }) {
  const [project, setProject] = useState(projects[0] ?? '');
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const list = useRead(
    () =>
      api.GET('/merchant/payments/stranded', {
        params: { query: { project, page: page - 1, pageSize: PAGE_SIZE, ...(status === 'all' ? {} : { status: Number(status) }) } },
      }),
    [project, status, page],
  );
  // What the last action did, shown beside the payment it was about.
  const [done, setDone] = useState<{ key: string; message: string }>();
  const [acted, setActed] = useState<string>();
  const [refunds, setRefunds] = useState<Record<string, string>>({});
  const credit = useAction((tx_digest: string, event_seq: string) =>
    api.POST('/merchant/payments/stranded/credit', { body: { project_name: project, tx_digest, event_seq } }),
  );
  const refund = useAction((tx_digest: string, event_seq: string, refund_digest: string) =>
    api.POST('/merchant/payments/stranded/refund', { body: { project_name: project, tx_digest, event_seq, refund_digest } }),
  );
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(Number(data.total) / PAGE_SIZE)) : 1;
  const coin = coins[project];
  const amountOf = (base: string) => (coin ? formatAmount(base, coin) : `${base} base units`);
  if (!project) return <p>Stranded payments are listed per project: create a project first.</p>;
  return (
    <section aria-labelledby="stranded-title">
      <h2 id="stranded-title">Stranded payments</h2>
      <p>Payments that matched no open order: late, for a cancelled order, of another amount, or naming no order.</p>
      <Select label="Project" name="stranded-project" value={project} options={projects.map((p) => ({ value: p, label: p }))} onValue={setProject} />
      <Select
        label="Show"
        name="stranded-status"
        value={status}
        options={[{ value: 'all', label: 'All' }, ...STATES.map((s, i) => ({ value: String(i), label: s }))]}
        onValue={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />
      <button type="button" onClick={list.reload} disabled={list.loading}>
        Refresh stranded payments
      </button>
      <ReadState loading={list.loading} error={list.error} what="stranded payments" />
      {/* A payment settled leaves the list it was shown in: what was done shows where it was. */}
      {done && !data?.payments.some((p) => `${p.cursor.txDigest}:${p.cursor.eventSeq}` === done.key) && <Done message={done.message} />}
      {data && data.payments.length === 0 && <p>None.</p>}
      {data?.payments.map((payment) => {
        const key = `${payment.cursor.txDigest}:${payment.cursor.eventSeq}`;
        return (
          <article key={key} class="payment" aria-label={`Payment ${payment.bill_no} of ${amountOf(payment.amount)}`}>
            <dl class="record">
              <dt>Bill</dt>
              <dd>{payment.bill_no}</dd>
              <dt>Amount</dt>
              <dd>{amountOf(payment.amount)}</dd>
              <dt>From</dt>
              <dd class="mono">{payment.fromer}</dd>
              <dt>Why stranded</dt>
              <dd>
                {payment.reason}
                {payment.detail ? `: ${payment.detail}` : ''}
              </dd>
              <dt>Paid</dt>
              <dd>
                <Time iso={payment.paid_at} />
              </dd>
              <dt>State</dt>
              <dd>{STATES[payment.status] ?? payment.status}</dd>
            </dl>
            {payment.status === 0 && (
              <div class="actions">
                {payment.order_id !== null && (
                  <ConfirmButton
                    label={`Credit order ${payment.order_id}`}
                    question={`The tickets of order ${payment.order_id} go to its player, once.`}
                    confirm="Credit tickets"
                    busy={credit.busy}
                    onConfirm={async () => {
                      setActed(key);
                      setDone(undefined);
                      if (await credit.run(payment.cursor.txDigest, payment.cursor.eventSeq)) {
                        setDone({ key, message: `Order ${payment.order_id} credited.` });
                        list.reload();
                      }
                    }}
                  />
                )}
                <Field
                  label={`Refund transaction of bill ${payment.bill_no}`}
                  name="refund_digest"
                  hint="The transaction that paid the payer back"
                  value={refunds[key] ?? ''}
                  onValue={(value) => setRefunds({ ...refunds, [key]: value })}
                  error={acted === key ? refund.errors.refund_digest : undefined}
                />
                <ConfirmButton
                  label="Record refund"
                  question={`The payment of ${amountOf(payment.amount)} is recorded as refunded by ${refunds[key] || '(no transaction given)'}; the chain is checked first.`}
                  confirm="Record refund"
                  busy={refund.busy}
                  onConfirm={async () => {
                    setActed(key);
                    setDone(undefined);
                    if (await refund.run(payment.cursor.txDigest, payment.cursor.eventSeq, refunds[key] ?? '')) {
                      setDone({ key, message: `Bill ${payment.bill_no} recorded as refunded.` });
                      list.reload();
                    }
                  }}
                />
              </div>
            )}
            {acted === key && <FormError error={credit.errors.form ?? refund.errors.form} />}
            {done?.key === key && <Done message={done.message} />}
          </article>
        );
      })}
      <Pager page={page} pages={pages} onPage={setPage} what="stranded payments" />
    </section>
  );
}
