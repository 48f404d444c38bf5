import { useEffect, useRef, useState } from 'preact/hooks';
import { MerchantStatus } from '../../../core/merchants/models.js';
import type { Api } from '../session.js';
import { useAction, useRead } from '../ui/call.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Field, FormError, Select, Submit } from '../ui/field.js';
import { CursorPager, useCursorPages } from '../ui/pager.js';
import { Done, ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';
import { merchantStatusName } from './merchant.js';

/** Admins: the merchants of a status (those waiting for review first), and a merchant's approval, suspension and reactivation. */
export function AdminMerchantsScreen({ api }: { api: Api }) {
  const [id, setId] = useState('');
  const [merchant, setMerchant] = useState<{ merchant_id: number; status: number; status_reason?: string | undefined }>();
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string>();
  const [listed, setListed] = useState('0');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useRead(
    () => api.GET('/merchant/admin/merchants', { params: { query: { status: Number(listed), limit: 20, ...(cursor ? { cursor } : {}) } } }),
    [listed, cursor],
  );
  const page = list.data;
  // The merchant under review opens below the list: bring it into view.
  const review = useRef<HTMLElement>(null);
  useEffect(() => review.current?.scrollIntoView({ block: 'nearest' }), [merchant?.merchant_id]);
  const find = useAction((merchant_id: number) => api.GET('/merchant/status', { params: { query: { merchant_id } } }));
  const change = useAction((body: { merchant_id: number; status: number; reason?: string }) => api.POST('/merchant/status', { body }));

  const lookUp = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const merchantId = Number(id);
    if (!Number.isInteger(merchantId) || merchantId < 1) return find.setErrors({ merchant_id: 'expected a merchant id: a positive integer' });
    const answer = await find.run(merchantId);
    setMerchant(answer);
  };
  const setStatus = async (status: number, what: string) => {
    if (!merchant) return;
    const why = reason.trim();
    const answer = await change.run({ merchant_id: merchant.merchant_id, status, ...(why ? { reason: why } : {}) });
    if (answer) {
      setMerchant({ merchant_id: merchant.merchant_id, status, status_reason: why || undefined });
      setReason('');
      setDone(`Merchant ${merchant.merchant_id} ${what}.`);
      list.reload();
    }
  };

  return (
    <>
      <section aria-labelledby="merchant-list-title">
        <h2 id="merchant-list-title">Merchants by status</h2>
        <Select
          label="Merchants listed"
          name="listed"
          value={listed}
          options={[
            { value: '0', label: 'Waiting for review' },
            { value: '1', label: 'Active' },
            { value: '2', label: 'Suspended' },
          ]}
          onValue={(value) => {
            setListed(value);
            pages.reset();
          }}
        />
        <ReadState loading={list.loading} error={list.error} what="the merchants" />
        {page && page.items.length === 0 && <p>None.</p>}
        {page && page.items.length > 0 && (
          <table>
            <caption class="visually-hidden">Merchants, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Created</th>
                <th scope="col">Last change</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={m.id}>
                  <td>{m.id}</td>
                  <td>{m.merchant_name}</td>
                  <td>{m.merchant_email}</td>
                  <td>
                    <Time iso={m.create_time} />
                  </td>
                  <td>{m.status_reason ?? '—'}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Review ${m.merchant_name}`}
                      onClick={() => {
                        setId(String(m.id));
                        setDone(undefined);
                        setMerchant({ merchant_id: m.id, status: m.status, status_reason: m.status_reason ?? undefined });
                      }}
                    >
                      Review
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <CursorPager pages={pages} next={page?.next} what="merchants" />
      </section>
      <section aria-labelledby="admin-merchants-title">
        <h2 id="admin-merchants-title">A merchant</h2>
        <form onSubmit={lookUp} noValidate>
          <Field label="Merchant id" name="merchant_id" inputMode="numeric" value={id} onValue={setId} error={find.errors.merchant_id} />
          <FormError error={find.errors.form} />
          <Submit busy={find.busy}>Look up</Submit>
        </form>
        {merchant && (
          <section aria-label={`Merchant ${merchant.merchant_id}`} ref={review}>
            <p>
              Merchant {merchant.merchant_id} is <strong>{merchantStatusName(merchant.status)}</strong>
              {merchant.status_reason ? ` (${merchant.status_reason})` : ''}.
            </p>
            <Field
              label="Reason (shown to the merchant)"
              name="reason"
              hint="Optional, up to 500 characters"
              value={reason}
              onValue={setReason}
              error={change.errors.reason}
            />
            <div class="actions">
              {merchant.status === MerchantStatus.pending && (
                <ConfirmButton
                  label="Approve merchant"
                  question="Its games go live and its servers may move value."
                  confirm="Approve"
                  danger={false}
                  busy={change.busy}
                  onConfirm={() => setStatus(MerchantStatus.active, 'approved')}
                />
              )}
              {merchant.status !== MerchantStatus.suspended && (
                <ConfirmButton
                  label="Suspend merchant"
                  question="Its games leave the catalogue and its server tokens stop moving value at once."
                  confirm="Suspend"
                  busy={change.busy}
                  onConfirm={() => setStatus(MerchantStatus.suspended, 'suspended')}
                />
              )}
              {merchant.status === MerchantStatus.suspended && (
                <ConfirmButton
                  label="Reactivate merchant"
                  question="Its games return to the catalogue and its server tokens work again."
                  confirm="Reactivate"
                  danger={false}
                  busy={change.busy}
                  onConfirm={() => setStatus(MerchantStatus.active, 'reactivated')}
                />
              )}
            </div>
            <FormError error={change.errors.form} />
            <Done message={done} />
          </section>
        )}
      </section>
    </>
  );
}
