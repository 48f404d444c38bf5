import { useState } from 'preact/hooks';
import { GameCreate, GameUpdate } from '../../../core/games/models.js';
import { MerchantStatus } from '../../../core/merchants/models.js';
import type { FieldErrors } from '../errors.js';
import type { Api } from '../session.js';
import { useAction, useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormError, Submit } from '../ui/field.js';
import { Pager } from '../ui/pager.js';
import { Done, ReadState } from '../ui/status.js';

const PAGE_SIZE = 10;

/**
 * Where a game stands with players: public (listed in the catalogue, game_detail answers it) while its merchant is
 * active, hidden otherwise; the service moves every game of a merchant in or out of the catalogue with the
 * merchant's status.
 */
const visibilityOf = (merchantStatus: number | undefined) =>
  merchantStatus === undefined
    ? '…'
    : merchantStatus === MerchantStatus.active
      ? 'Public'
      : merchantStatus === MerchantStatus.suspended
        ? 'Hidden: merchant suspended'
        : 'Hidden until the merchant is approved';

/** What a game still needs before players can pay for it or claim its rewards on chain. */
const chainStatusOf = (game: { package_id?: string | undefined; object_id?: string | undefined }) =>
  game.package_id && game.object_id ? 'Package and object set' : game.package_id || game.object_id ? 'Incomplete: set both ids' : 'Not set';

/** The studio's games, newest first, paged; a form to create one and one to edit the selected one. */
export function GamesScreen({ api }: { api: Api }) {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string>();
  const games = useRead(
    () =>
      // The service counts pages from 0; the console shows them from 1.
      api.GET('/merchant/games', { params: { query: { page: page - 1, pageSize: PAGE_SIZE } } }),
    [page],
  );
  const list = games.data;
  const pages = list ? Math.max(1, Math.ceil(Number(list.total) / PAGE_SIZE)) : 1;
  const selected = list?.games.find((game) => game.code === editing);
  const merchant = useRead(() => api.GET('/merchant/info'), []);
  const visibility = visibilityOf(merchant.data?.status);
  return (
    <>
      <section aria-labelledby="games-title">
        <h2 id="games-title">Your games</h2>
        <ReadState loading={games.loading} error={games.error} what="your games" />
        {list && list.games.length === 0 && <p>No games yet: create the first below.</p>}
        {list && list.games.length > 0 && (
          <table>
            <caption class="visually-hidden">Your games</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Name</th>
                <th scope="col">Logo</th>
                <th scope="col">Players see it</th>
                <th scope="col">On chain</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.games.map((game) => (
                <tr key={game.code}>
                  <td>{game.code}</td>
                  <td>{game.gameName}</td>
                  <td>{game.logo || '—'}</td>
                  <td>{visibility}</td>
                  <td>{chainStatusOf(game)}</td>
                  <td>{game.create_time}</td>
                  <td>
                    <button type="button" onClick={() => setEditing(game.code)} aria-label={`Edit ${game.gameName}`}>
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pages={pages} onPage={setPage} what="games" />
      </section>
      {selected ? (
        <EditGame
          api={api}
          game={selected}
          onSaved={() => {
            setEditing(undefined);
            games.reload();
          }}
        />
      ) : (
        <CreateGame api={api} onCreated={games.reload} />
      )}
    </>
  );
}

/** save_file: uploads an image and answers its stored path, which a game's logo or cover then names. */
function ImageUpload({ api, label, path, onUploaded }: { api: Api; label: string; path: string; onUploaded: (path: string) => void }) {
  const [preview, setPreview] = useState<string>();
  const upload = useAction((file: File) =>
    api.POST('/merchant/file', {
      // The document types a file part as a string (`format: binary`); the browser sends the File itself.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append('file', body.file as unknown as Blob);
        return form;
      },
    }),
  );
  const choose = async (event: Event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    if (preview) URL.revokeObjectURL(preview);
    setPreview(URL.createObjectURL(file));
    const answer = await upload.run(file);
    if (answer) onUploaded(answer.path);
  };
  return (
    <div class="field">
      <label>
        {label}
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={choose}
          aria-describedby={upload.errors.form ? 'upload-error' : undefined}
        />
      </label>
      {upload.busy && <p role="status">Uploading…</p>}
      {preview && path && <img src={preview} alt={`Preview of the chosen ${label.toLowerCase()}`} class="preview" />}
      {upload.errors.form && (
        <p class="error" id="upload-error" role="alert">
          {upload.errors.form}
        </p>
      )}
    </div>
  );
}

const emptyGame = { code: '', game_name: '', describe: '', game_url: '', logo: '', package_id: '', object_id: '' };

function CreateGame({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [values, setValues] = useState(emptyGame);
  const [saved, setSaved] = useState(0);
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(GameCreate, (body) => api.POST('/merchant/games/save', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    // Optional on-chain ids left empty are not sent.
    const { package_id, object_id, ...rest } = values;
    const body = { ...rest, ...(package_id ? { package_id } : {}), ...(object_id ? { object_id } : {}) };
    if (await save.submit(body)) {
      setDone(`Game ${values.code} created.`);
      setValues(emptyGame);
      setSaved((n) => n + 1);
      onCreated();
    }
  };
  return (
    <section aria-labelledby="create-game-title">
      <h2 id="create-game-title">Create a game</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="Code"
          name="code"
          hint="Letters, digits, _ or -: the game's id in every call"
          value={values.code}
          onValue={set('code')}
          error={save.errors.code}
        />
        <Field label="Name" name="game_name" value={values.game_name} onValue={set('game_name')} error={save.errors.game_name} />
        <Field label="Description" name="describe" value={values.describe} onValue={set('describe')} error={save.errors.describe} />
        <Field label="Game URL" name="game_url" type="url" value={values.game_url} onValue={set('game_url')} error={save.errors.game_url} />
        {/* A new key for each game saved: the chosen file and its preview go with it. */}
        <ImageUpload key={saved} api={api} label="Logo image" path={values.logo} onUploaded={set('logo')} />
        {values.logo && <p>Logo stored as {values.logo}</p>}
        <ChainIdFields values={values} set={set} errors={save.errors} hint="0x and 64 hex digits; may be set later" />
        <FormError error={save.errors.form ?? save.errors.logo} />
        <Submit busy={save.busy}>Create game</Submit>
      </form>
      <Done message={done} />
    </section>
  );
}

/** The game's on-chain ids, in the create and the edit form alike. */
function ChainIdFields(props: {
  values: { package_id: string; object_id: string };
  set: (field: 'package_id' | 'object_id') => (value: string) => void;
  errors: FieldErrors;
  hint: string;
}) {
  const { values, set, errors, hint } = props;
  return (
    <>
      <Field label="Move package id" name="package_id" hint={hint} value={values.package_id} onValue={set('package_id')} error={errors.package_id} />
      <Field label="Game object id" name="object_id" hint={hint} value={values.object_id} onValue={set('object_id')} error={errors.object_id} />
    </>
  );
}

interface EditableGame {
  code: string;
  gameName: string;
  describe: string;
  package_id?: string | undefined;
  object_id?: string | undefined;
}

function EditGame({ api, game, onSaved }: { api: Api; game: EditableGame; onSaved: () => void }) {
  const [values, setValues] = useState({
    game_name: game.gameName,
    describe: game.describe,
    package_id: game.package_id ?? '',
    object_id: game.object_id ?? '',
  });
  const save = useCheckedAction(GameUpdate, (body) => api.POST('/merchant/games/update', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { code: game.code, ...values };
    if (await save.submit(body)) onSaved();
  };
  return (
    <section aria-labelledby="edit-game-title">
      <h2 id="edit-game-title">Edit {game.code}</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Name" name="game_name" value={values.game_name} onValue={set('game_name')} error={save.errors.game_name} />
        <Field label="Description" name="describe" value={values.describe} onValue={set('describe')} error={save.errors.describe} />
        <ChainIdFields values={values} set={set} errors={save.errors} hint="Empty clears it" />
        <FormError error={save.errors.form} />
        <Submit busy={save.busy}>Save game</Submit>
      </form>
    </section>
  );
}
