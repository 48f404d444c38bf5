import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useAction } from '../ui/call.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Field, FormError, Submit } from '../ui/field.js';
import { Done } from '../ui/status.js';
import { merchantStatusName } from './merchant.js';

const PENDING = 0;
const ACTIVE = 1;
const SUSPENDED = 2;

/** Admins: a merchant's status, its approval, suspension and reactivation. */
export function AdminMerchantsScreen({ api }: { api: Api }) {
  const [id, setId] = useState('');
  const [merchant, setMerchant] = useState<{ merchant_id: number; status: number }>();
  const [done, setDone] = useState<string>();
  const find = useAction((merchant_id: number) => api.GET('/merchant/status', { params: { query: { merchant_id } } }));
  const change = useAction((body: { merchant_id: number; status: number }) => api.POST('/merchant/status', { body }));

  const lookUp = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const merchantId = Number(id);
    if (!Number.isInteger(merchantId) || merchantId < 1) return find.setErrors({ merchant_id: 'expected a merchant id: a positive integer' });
    const answer = await find.run(merchantId);
    setMerchant(answer?.data);
  };
  const setStatus = async (status: number, what: string) => {
    if (!merchant) return;
    const answer = await change.run({ merchant_id: merchant.merchant_id, status });
    if (answer) {
      setMerchant({ merchant_id: merchant.merchant_id, status });
      setDone(`Merchant ${merchant.merchant_id} ${what}.`);
    }
  };

  return (
    <section aria-labelledby="admin-merchants-title">
      <h2 id="admin-merchants-title">Merchants</h2>
      <form onSubmit={lookUp} noValidate>
        <Field label="Merchant id" name="merchant_id" inputMode="numeric" value={id} onValue={setId} error={find.errors.merchant_id} />
        <FormError error={find.errors.form} />
        <Submit busy={find.busy}>Look up</Submit>
      </form>
      {merchant && (
        <section aria-label={`Merchant ${merchant.merchant_id}`}>
          <p>
            Merchant {merchant.merchant_id} is <strong>{merchantStatusName(merchant.status)}</strong>.
          </p>
          <div class="actions">
            {merchant.status === PENDING && (
              <ConfirmButton
                label="Approve merchant"
                question="Its games go live and its servers may move value."
                confirm="Approve"
                danger={false}
                busy={change.busy}
                onConfirm={() => setStatus(ACTIVE, 'approved')}
              />
            )}
            {merchant.status !== SUSPENDED && (
              <ConfirmButton
                label="Suspend merchant"
                question="Its games leave the catalogue and its server tokens stop moving value at once."
                confirm="Suspend"
                busy={change.busy}
                onConfirm={() => setStatus(SUSPENDED, 'suspended')}
              />
            )}
            {merchant.status === SUSPENDED && (
              <ConfirmButton
                label="Reactivate merchant"
                question="Its games return to the catalogue and its server tokens work again."
                confirm="Reactivate"
                danger={false}
                busy={change.busy}
                onConfirm={() => setStatus(ACTIVE, 'reactivated')}
              />
            )}
          </div>
          <FormError error={change.errors.form} />
        </section>
      )}
      <Done message={done} />
    </section>
  );
}
