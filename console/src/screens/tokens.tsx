import { useState } from 'preact/hooks';
import { ServerTokenCreate } from '../../../core/access/models.js';
import type { Api } from '../session.js';
import { useAction, useCheckedAction, useRead } from '../ui/call.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Field, FormError, Submit } from '../ui/field.js';
import { CursorPager, useCursorPages } from '../ui/pager.js';
import { Done, ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

/**
 * Server tokens (a game server's credential, 30 days): issued here under a name and shown once, to copy into the
 * server's configuration; listed by name (never the token) and revoked one by one, or all at once. Console
 * sessions: signed out everywhere at once.
 */
export function TokensScreen({ api, onSignedOutEverywhere }: { api: Api; onSignedOutEverywhere: () => void }) {
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<{ token: string; name: string; expiresAt: string }>();
  const [done, setDone] = useState<string>();
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useRead(() => api.GET('/merchant/tokens', { params: { query: cursor ? { cursor } : {} } }), [cursor]);
  const issue = useCheckedAction(ServerTokenCreate, (body) => api.POST('/merchant/tokens', { body }));
  const revokeOne = useAction((id: string) => api.POST('/merchant/tokens/server/revoke', { body: { id } }));
  const revoke = useAction((tokens: 'server' | 'console') => api.POST('/merchant/tokens/revoke', { body: { tokens } }));
  const [copied, setCopied] = useState(false);

  const newToken = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    setCopied(false);
    const answer = await issue.submit({ name: name.trim() });
    if (!answer) return;
    setIssued({ token: answer.accessToken, name: answer.name, expiresAt: answer.expiresAt });
    setName('');
    list.reload();
  };
  const revokeToken = async (id: string, tokenName: string) => {
    setDone(undefined);
    const answer = await revokeOne.run(id);
    if (!answer) return;
    setDone(`The server token ${tokenName ? `“${tokenName}”` : 'without a name'} is revoked.`);
    list.reload();
  };
  const revokeServer = async () => {
    setIssued(undefined);
    const answer = await revoke.run('server');
    if (answer) setDone(`Every server token issued up to ${answer.revoked_before} is revoked.`);
    list.reload();
  };
  const revokeConsole = async () => {
    if (await revoke.run('console')) onSignedOutEverywhere();
  };

  const page = list.data;
  return (
    <>
      <section aria-labelledby="server-tokens-title">
        <h2 id="server-tokens-title">Server tokens</h2>
        <p>A game server sends a server token with its score reports, ticket spending and rewards. It lasts 30 days.</p>
        <form onSubmit={newToken} noValidate aria-labelledby="issue-token-title">
          <h3 id="issue-token-title">Issue a server token</h3>
          <Field
            label="Name"
            name="name"
            value={name}
            onValue={setName}
            error={issue.errors.name}
            hint="The game server or stage it is for, e.g. eu-production (1-64 characters)."
            required
          />
          <FormError error={issue.errors.form} />
          <Submit busy={issue.busy}>Issue token</Submit>
        </form>
        {issued && (
          <section class="secret" aria-label="The new server token">
            <p>
              <strong>Shown once:</strong> copy “{issued.name}” now into your game server's configuration; it is never shown again. It expires{' '}
              {issued.expiresAt}.
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
        <h3 id="token-list-title">Live server tokens</h3>
        <ReadState loading={list.loading} error={list.error} what="the server tokens" />
        {page && page.items.length === 0 && <p>No server token has been issued in the last 30 days.</p>}
        {page && page.items.length > 0 && (
          <table aria-labelledby="token-list-title">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Issued</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((token) => (
                <tr key={token.id}>
                  <td>{token.name || <em>no name</em>}</td>
                  <td>
                    <Time iso={token.issued_at} />
                  </td>
                  <td>
                    <Time iso={token.expires_at} />
                  </td>
                  <td>
                    {token.revoked ? (
                      'Revoked'
                    ) : (
                      <ConfirmButton
                        label={`Revoke ${token.name || token.id}`}
                        question={`The server token ${token.name ? `“${token.name}”` : token.id} stops working at once. The other server tokens keep working.`}
                        confirm="Revoke token"
                        busy={revokeOne.busy}
                        onConfirm={() => revokeToken(token.id, token.name)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <CursorPager pages={pages} next={page?.next} what="server tokens" />
        <FormError error={revokeOne.errors.form} />
        <Done message={done} />
        <ConfirmButton
          label="Revoke all server tokens"
          question="Every server token issued until now stops working at once. Your game servers need a new one."
          confirm="Revoke server tokens"
          busy={revoke.busy}
          onConfirm={revokeServer}
        />
        <FormError error={revoke.errors.form} />
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
