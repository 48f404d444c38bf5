import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useAction } from '../ui/call.js';
import { FormError, Select, Submit } from '../ui/field.js';

type Environment = 'Production' | 'Sandbox';

/** Admins: the stage's health as seen from outside, starting with the App Store's notifications reaching it. */
export function AdminStageScreen({ api }: { api: Api }) {
  return <AppStoreTest api={api} />;
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
    const result = (await test.run({ environment, ...(token ? { testNotificationToken: token } : {}) }))?.data;
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
