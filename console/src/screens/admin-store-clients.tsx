import { useState } from 'preact/hooks';
import { StoreClientRegistration } from '../../../core/partner-store/models.js';
import { STORE_REGIONS, STORE_SCOPES, type StoreRegion } from '../../../core/partner-store/names.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormError, Select, Submit, TextArea } from '../ui/field.js';
import { CursorPager, useCursorPages } from '../ui/pager.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

/** Admins: the partner store's OAuth clients of a region, and the registration of new ones. */
export function AdminStoreClientsScreen({ api }: { api: Api }) {
  const [region, setRegion] = useState<StoreRegion>('default');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useRead(
    () => api.GET('/merchant/admin/store/clients', { params: { query: { region, limit: 10, ...(cursor ? { cursor } : {}) } } }),
    [region, cursor],
  );
  const page = list.data;
  return (
    <>
      <section aria-labelledby="store-clients-title">
        <h2 id="store-clients-title">Partner store clients</h2>
        <Select
          label="Region"
          name="region"
          value={region}
          options={STORE_REGIONS.map((r) => ({ value: r, label: r }))}
          onValue={(value) => {
            setRegion(value as StoreRegion);
            pages.reset();
          }}
        />
        <ReadState loading={list.loading} error={list.error} what="the region's clients" />
        {page && page.clients.length === 0 && <p>No clients registered in this region.</p>}
        {page && page.clients.length > 0 && (
          <table>
            <caption class="visually-hidden">Clients of the {region} region, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client id</th>
                <th scope="col">Type</th>
                <th scope="col">Scopes</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              {page.clients.map((client) => (
                <tr key={client.client_id}>
                  <td>{client.name}</td>
                  <td class="mono">{client.client_id}</td>
                  <td>
                    {client.type}
                    {client.has_assertion_key ? ', signs users in' : ''}
                  </td>
                  <td>{client.scopes.join(' ')}</td>
                  <td>
                    <Time iso={client.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <CursorPager pages={pages} next={page?.next} what="clients" />
      </section>
      <RegisterClient api={api} region={region} onRegistered={list.reload} />
    </>
  );
}

function RegisterClient({ api, region, onRegistered }: { api: Api; region: StoreRegion; onRegistered: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'public' | 'confidential'>('public');
  const [uris, setUris] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [jwk, setJwk] = useState('');
  const [registered, setRegistered] = useState<{ id: string; secret?: string | undefined }>();
  const register = useCheckedAction(StoreClientRegistration, (body) => api.POST('/merchant/admin/store/clients', { body }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setRegistered(undefined);
    let assertion: unknown;
    if (jwk.trim()) {
      try {
        assertion = JSON.parse(jwk);
      } catch {
        return register.setErrors({ assertion_jwk: 'expected the public key as JSON (a JWK)' });
      }
    }
    const body = {
      region,
      type,
      name,
      redirect_uris: uris
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      scopes,
      ...(assertion === undefined ? {} : { assertion_jwk: assertion }),
    };
    const answer = await register.submit(body);
    if (answer) {
      setRegistered({ id: answer.client_id, secret: answer.client_secret });
      setName('');
      setUris('');
      setScopes([]);
      setJwk('');
      onRegistered();
    }
  };

  return (
    <section aria-labelledby="register-client-title">
      <h2 id="register-client-title">Register a client in the {region} region</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Client name" name="name" value={name} onValue={setName} error={register.errors.name} />
        <Select
          label="Client type"
          name="type"
          value={type}
          options={[
            { value: 'public', label: 'Public (an app: no secret)' },
            { value: 'confidential', label: 'Confidential (a server: a secret)' },
          ]}
          onValue={(value) => setType(value as 'public' | 'confidential')}
          error={register.errors.type}
        />
        <TextArea label="Redirect URIs, one per line" name="redirect_uris" value={uris} onValue={setUris} error={register.errors.redirect_uris} />
        <fieldset aria-describedby={register.errors.scopes ? 'scopes-error' : undefined}>
          <legend>Scopes</legend>
          {STORE_SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={scopes.includes(scope)}
                onChange={(event) => setScopes((event.target as HTMLInputElement).checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
              />
              {scope}
            </label>
          ))}
          {register.errors.scopes && (
            <p class="error" id="scopes-error">
              {register.errors.scopes}
            </p>
          )}
        </fieldset>
        {type === 'confidential' && (
          <TextArea
            label="Assertion public key (optional: a partner backend that signs its users in)"
            name="assertion_jwk"
            value={jwk}
            onValue={setJwk}
            error={register.errors.assertion_jwk}
          />
        )}
        <FormError error={register.errors.form ?? register.errors.region} />
        <Submit busy={register.busy}>Register client</Submit>
      </form>
      {registered && (
        <section class="secret" aria-label="The new client">
          <p role="status">Client {registered.id} registered.</p>
          {registered.secret && (
            <>
              <p>
                <strong>Shown once:</strong> give the secret to the partner now; the platform keeps only its hash.
              </p>
              <label>
                Client secret
                <input readOnly value={registered.secret} class="mono" />
              </label>
              <button type="button" onClick={() => navigator.clipboard.writeText(registered.secret ?? '')}>
                Copy secret
              </button>
            </>
          )}
        </section>
      )}
    </section>
  );
}
