import { useState } from 'preact/hooks';
import { MerchantPayload } from '../../../core/merchants/models.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd } from '../ui/field.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

export const merchantStatusName = (status: number) => ['waiting for review', 'active', 'suspended'][status] ?? `status ${status}`;

/** The studio's merchant record, or the form that creates it. */
export function MerchantScreen({ api }: { api: Api }) {
  const info = useRead(() => api.GET('/merchant/info'), []);
  if (info.code === 'merchant.none') return <CreateMerchant api={api} onCreated={info.reload} />;
  if (info.loading || info.error) return <ReadState loading={info.loading} error={info.error} what="your merchant" />;
  const merchant = info.data!;
  return (
    <section aria-labelledby="merchant-title">
      <h2 id="merchant-title">{merchant.merchant_name}</h2>
      <dl class="record">
        <dt>Merchant id</dt>
        <dd>{merchant.id}</dd>
        <dt>Status</dt>
        <dd>{merchantStatusName(merchant.status)}</dd>
        <dt>Email</dt>
        <dd>{merchant.merchant_email}</dd>
        <dt>Description</dt>
        <dd>{merchant.description || '—'}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={merchant.create_time} />
        </dd>
      </dl>
    </section>
  );
}

function CreateMerchant({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [values, setValues] = useState({ merchant_name: '', description: '' });
  const create = useCheckedAction(MerchantPayload, (body) => api.POST('/merchant/create', { body }));
  const [done, setDone] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await create.submit(values)) {
      setDone('Merchant created: an admin reviews it before its games go live.');
      onCreated();
    }
  };
  return (
    <section aria-labelledby="create-merchant-title">
      <h2 id="create-merchant-title">Create your merchant</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="Studio name"
          name="merchant_name"
          value={values.merchant_name}
          onValue={(v) => setValues({ ...values, merchant_name: v })}
          error={create.errors.merchant_name}
        />
        <Field
          label="Description"
          name="description"
          value={values.description}
          onValue={(v) => setValues({ ...values, description: v })}
          error={create.errors.description}
        />
        <FormEnd busy={create.busy} error={create.errors.form} done={done}>
          Create merchant
        </FormEnd>
      </form>
    </section>
  );
}
