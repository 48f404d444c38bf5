import { useState } from 'preact/hooks';
import { PasswordChange } from '../../../core/access/models.js';
import type { Api, Session } from '../session.js';
import { useCheckedAction } from '../ui/call.js';
import { Field, FormError, Submit } from '../ui/field.js';
import { Done } from '../ui/status.js';

/**
 * The signed-in account: its password. A change revokes every console session of the account, this one included,
 * and answers a new session, which the console keeps (`onSession`) so this tab stays signed in.
 */
export function AccountScreen({ api, session, onSession }: { api: Api; session: Session; onSession: (session: Session) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<string>();
  const change = useCheckedAction(PasswordChange, (body) => api.POST('/merchant/account/password', { body }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const answer = await change.submit({ current_password: current, new_password: next });
    if (!answer) return;
    setCurrent('');
    setNext('');
    onSession({ ...session, token: answer.accessToken, expiresAt: answer.expiresAt, accountId: answer.account_id, role: answer.role });
    setDone('Your password is changed. Every other console session of this account is signed out; this one goes on.');
  };

  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>Signed in as {session.email}. Changing the password signs this account out of the console everywhere else.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autocomplete="current-password"
          value={current}
          onValue={setCurrent}
          error={change.errors.current_password}
          required
        />
        <Field
          label="New password"
          name="new_password"
          type="password"
          autocomplete="new-password"
          value={next}
          onValue={setNext}
          error={change.errors.new_password}
          hint="At least 8 characters."
          required
        />
        <FormError error={change.errors.form} />
        <Submit busy={change.busy}>Change password</Submit>
      </form>
      <Done message={done} />
    </section>
  );
}
