import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useAction } from '../ui/call.js';
import { ConfirmButton } from '../ui/confirm.js';
import { FormError } from '../ui/field.js';
import { Done } from '../ui/status.js';

/**
 * Server tokens (a game server's credential, 30 days): issued here and shown once, to copy into the server's
 * configuration; revoked all at once. Console sessions: signed out everywhere at once.
 */
export function TokensScreen({ api, onSignedOutEverywhere }: { api: Api; onSignedOutEverywhere: () => void }) {
  const [issued, setIssued] = useState<{ token: string; expiresAt: string }>();
  const [done, setDone] = useState<string>();
  const issue = useAction(() => api.GET('/merchant/token'));
  const revoke = useAction((tokens: 'server' | 'console') => api.POST('/merchant/tokens/revoke', { body: { tokens } }));
  const [copied, setCopied] = useState(false);

  const newToken = async () => {
    setDone(undefined);
    setCopied(false);
    const answer = await issue.run();
    if (answer) setIssued({ token: answer.accessToken, expiresAt: answer.expiresAt });
  };
  const revokeServer = async () => {
    setIssued(undefined);
    const answer = await revoke.run('server');
    if (answer) setDone(`Every server token issued up to ${answer.revoked_before} is revoked.`);
  };
  const revokeConsole = async () => {
    if (await revoke.run('console')) onSignedOutEverywhere();
  };

  return (
    <>
      <section aria-labelledby="server-tokens-title">
        <h2 id="server-tokens-title">Server tokens</h2>
        <p>A game server sends a server token with its score reports, ticket spending and rewards. It lasts 30 days.</p>
        <button type="button" onClick={newToken} disabled={issue.busy} aria-busy={issue.busy ? 'true' : undefined}>
          {issue.busy ? 'Working…' : 'Issue a server token'}
        </button>
        <FormError error={issue.errors.form} />
        {issued && (
          <section class="secret" aria-label="The new server token">
            <p>
              <strong>Shown once:</strong> copy it now into your game server's configuration. It expires {issued.expiresAt}.
            </p>
            <label>
              Server token
              <input readOnly value={issued.token} class="mono" onFocus={(event) => (event.target as HTMLInputElement).select()} />
            </label>
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard.writeText(issued.token);
                setCopied(true);
              }}
            >
              Copy token
            </button>
            {copied && <span role="status">Copied.</span>}
          </section>
        )}
        <ConfirmButton
          label="Revoke all server tokens"
          question="Every server token issued until now stops working at once. Your game servers need a new one."
          confirm="Revoke server tokens"
          busy={revoke.busy}
          onConfirm={revokeServer}
        />
        <FormError error={revoke.errors.form} />
        <Done message={done} />
      </section>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Console sessions</h2>
        <p>Signs this account out of the console everywhere: every browser that signed in with it, this one included.</p>
        <ConfirmButton
          label="Sign out everywhere"
          question="Every console session of this account ends now, this one included."
          confirm="Sign out everywhere"
          busy={revoke.busy}
          onConfirm={revokeConsole}
        />
      </section>
    </>
  );
}
