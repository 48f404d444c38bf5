import { useState } from 'preact/hooks';
import { Credentials } from '../../../core/merchants/models.js';
import { clientFor, type Session } from '../session.js';
import { useCheckedAction } from '../ui/call.js';
import { Field, FormError, Submit } from '../ui/field.js';

/** merchant_login: a studio's or an admin's console account. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useCheckedAction(Credentials, (body) => clientFor().POST('/merchant/login', { body }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { email: email.trim(), password };
    const answer = await login.submit(body);
    if (answer)
      onSignedIn({
        token: answer.accessToken,
        expiresAt: answer.expiresAt,
        accountId: answer.account_id,
        role: answer.role,
        email: body.email,
      });
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the console</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Email" name="email" type="email" autocomplete="username" value={email} onValue={setEmail} error={login.errors.email} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="current-password"
          value={password}
          onValue={setPassword}
          error={login.errors.password}
          required
        />
        <FormError error={login.errors.form} />
        <Submit busy={login.busy}>Sign in</Submit>
      </form>
    </main>
  );
}
