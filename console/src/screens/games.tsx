import { useEffect, useRef, useState } from 'preact/hooks';
import { GameCreate, GameUpdate } from '../../../core/games/models.js';
import { MerchantStatus } from '../../../core/merchants/models.js';
import type { FieldErrors } from '../errors.js';
import { type Api, fileUrl } from '../session.js';
import { useAction, useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd, TextArea } from '../ui/field.js';
import { Pager } from '../ui/pager.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

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
                  <td>{game.logo ? <img class="thumb" src={fileUrl(game.logo)} alt={`Logo of ${game.gameName}`} title={game.logo} /> : '—'}</td>
                  <td>{visibility}</td>
                  <td>{chainStatusOf(game)}</td>
                  <td>
                    <Time iso={game.create_time} />
                  </td>
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
        // A new key for each game: the form starts from that game's fields.
        <EditGame key={selected.code} api={api} game={selected} onSaved={games.reload} onClose={() => setEditing(undefined)} />
      ) : (
        <CreateGame api={api} onCreated={games.reload} />
      )}
    </>
  );
}

/** save_file: uploads an image and answers its stored path, which a game's logo or cover then names. */
function ImageUpload({ api, label, path, onUploaded }: { api: Api; label: string; path: string; onUploaded: (path: string) => void }) {
  const [preview, setPreview] = useState<string>();
  const errorId = `upload-error-${label.replace(/\W+/g, '-').toLowerCase()}`;
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
        <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" onChange={choose} aria-describedby={upload.errors.form ? errorId : undefined} />
      </label>
      {upload.busy && <p role="status">Uploading…</p>}
      {preview && path && <img src={preview} alt={`Preview of the chosen ${label.toLowerCase()}`} class="preview" />}
      {!preview && path && <img src={fileUrl(path)} alt={`Current ${label.toLowerCase()}`} title={path} class="preview" />}
      {upload.errors.form && (
        <p class="error" id={errorId} role="alert">
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
    setDone(undefined);
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
        <FormEnd busy={save.busy} error={save.errors.form ?? save.errors.logo} done={done}>
          Create game
        </FormEnd>
      </form>
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

/** A game as the studio's list answers it: every field update_single_game changes. */
interface EditableGame {
  code: string;
  gameName: string;
  describe: string;
  game_url: string;
  logo: string;
  head_image: string;
  dev: string;
  genre: string;
  platform: string[];
  tags: string[];
  images: string[];
  link: Record<string, string>;
  releaseDate: string;
  dcNum?: string | undefined;
  dclink?: string | undefined;
  package_id?: string | undefined;
  object_id?: string | undefined;
}

/** A list of labels as typed: comma-separated, blanks dropped. */
const labelsOf = (typed: string) =>
  typed
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);

type LinkRow = { name: string; url: string };

/** update_single_game: every field of a game, each sent as it stands (an empty URL or id clears it). */
function EditGame({ api, game, onSaved, onClose }: { api: Api; game: EditableGame; onSaved: () => void; onClose: () => void }) {
  const [values, setValues] = useState({
    game_name: game.gameName,
    describe: game.describe,
    game_url: game.game_url,
    logo: game.logo,
    coverImg: game.head_image,
    dev: game.dev,
    genre: game.genre,
    platform: game.platform.join(', '),
    tags: game.tags.join(', '),
    releaseDate: game.releaseDate,
    dcNum: game.dcNum ?? '',
    dclink: game.dclink ?? '',
    package_id: game.package_id ?? '',
    object_id: game.object_id ?? '',
  });
  const [images, setImages] = useState(game.images);
  const [links, setLinks] = useState<LinkRow[]>(Object.entries(game.link).map(([name, url]) => ({ name, url })));
  const [done, setDone] = useState<string>();
  const [uploads, setUploads] = useState(0);
  const save = useCheckedAction(GameUpdate, (body) => api.POST('/merchant/games/update', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const section = useRef<HTMLElement>(null);
  // The form opens below the list: bring it into view.
  useEffect(() => section.current?.scrollIntoView({ block: 'start' }), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const { logo, coverImg, platform, tags, ...rest } = values;
    const body = {
      code: game.code,
      ...rest,
      platform: labelsOf(platform),
      tags: labelsOf(tags),
      images,
      link: Object.fromEntries(links.filter((row) => row.name.trim() || row.url.trim()).map((row) => [row.name.trim(), row.url.trim()])),
      // A stored image is replaced, never cleared: an empty path is not sent.
      ...(logo ? { logo } : {}),
      ...(coverImg ? { coverImg } : {}),
    };
    if (await save.submit(body)) {
      setDone(`Game ${game.code} saved.`);
      onSaved();
    }
  };
  const linkError = save.errors.link;
  return (
    <section aria-labelledby="edit-game-title" ref={section}>
      <h2 id="edit-game-title">Edit {game.code}</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Name" name="game_name" value={values.game_name} onValue={set('game_name')} error={save.errors.game_name} />
        <TextArea label="Description" name="describe" rows={4} value={values.describe} onValue={set('describe')} error={save.errors.describe} />
        <Field
          label="Game URL"
          name="game_url"
          type="url"
          hint="Empty clears it"
          value={values.game_url}
          onValue={set('game_url')}
          error={save.errors.game_url}
        />
        <ImageUpload api={api} label="Logo image" path={values.logo} onUploaded={set('logo')} />
        <FieldMessage error={save.errors.logo} />
        <ImageUpload api={api} label="Cover image" path={values.coverImg} onUploaded={set('coverImg')} />
        <FieldMessage error={save.errors.coverImg} />
        <fieldset>
          <legend>Screenshots</legend>
          {images.length === 0 && <p class="hint">None yet.</p>}
          <ul class="gallery">
            {images.map((path, index) => (
              <li key={path}>
                <img class="preview" src={fileUrl(path)} alt={`Screenshot ${index + 1}`} title={path} />
                <button type="button" class="quiet" onClick={() => setImages(images.filter((_, k) => k !== index))}>
                  Remove screenshot {index + 1}
                </button>
              </li>
            ))}
          </ul>
          {/* A new key after each upload: the file input is empty again for the next one. */}
          <ImageUpload
            key={uploads}
            api={api}
            label="Add a screenshot"
            path=""
            onUploaded={(path) => {
              setImages([...images, path]);
              setUploads((n) => n + 1);
            }}
          />
          <FieldMessage error={save.errors.images} />
        </fieldset>
        <Field label="Developer" name="dev" value={values.dev} onValue={set('dev')} error={save.errors.dev} />
        <Field label="Genre" name="genre" value={values.genre} onValue={set('genre')} error={save.errors.genre} />
        <Field
          label="Platforms"
          name="platform"
          hint="Separated by commas, such as Web, iOS, Android"
          value={values.platform}
          onValue={set('platform')}
          error={save.errors.platform}
        />
        <Field label="Tags" name="tags" hint="Separated by commas" value={values.tags} onValue={set('tags')} error={save.errors.tags} />
        <fieldset aria-describedby={linkError ? 'links-error' : undefined}>
          <legend>Links</legend>
          {links.length === 0 && <p class="hint">No links yet.</p>}
          {links.length > 0 && (
            <table class="rows">
              <caption class="visually-hidden">The game's links</caption>
              <thead>
                <tr>
                  <th scope="col">Platform</th>
                  <th scope="col">URL</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {links.map((row, index) => (
                  <tr key={index}>
                    <td>
                      <Field
                        label={`Platform of link ${index + 1}`}
                        labelHidden
                        name={`link-name-${index}`}
                        value={row.name}
                        onValue={(name) => setLinks(links.map((r, k) => (k === index ? { ...r, name } : r)))}
                      />
                    </td>
                    <td>
                      <Field
                        label={`URL of link ${index + 1}`}
                        labelHidden
                        name={`link-url-${index}`}
                        type="url"
                        value={row.url}
                        onValue={(url) => setLinks(links.map((r, k) => (k === index ? { ...r, url } : r)))}
                      />
                    </td>
                    <td>
                      <button type="button" class="quiet" onClick={() => setLinks(links.filter((_, k) => k !== index))}>
                        Remove link {index + 1}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {linkError && (
            <p class="error" id="links-error">
              {linkError}
            </p>
          )}
          <button type="button" onClick={() => setLinks([...links, { name: '', url: '' }])}>
            Add a link
          </button>
        </fieldset>
        <Field
          label="Release date"
          name="releaseDate"
          hint="Free text, such as 2026-03-14"
          value={values.releaseDate}
          onValue={set('releaseDate')}
          error={save.errors.releaseDate}
        />
        <Field label="Discord members" name="dcNum" value={values.dcNum} onValue={set('dcNum')} error={save.errors.dcNum} />
        <Field label="Discord link" name="dclink" type="url" value={values.dclink} onValue={set('dclink')} error={save.errors.dclink} />
        <ChainIdFields values={values} set={set} errors={save.errors} hint="Empty clears it" />
        <FormEnd busy={save.busy} error={save.errors.form} done={done}>
          Save game
        </FormEnd>
        <button type="button" class="quiet" onClick={onClose}>
          Close the editor
        </button>
      </form>
    </section>
  );
}

/** A field's message where the field is not a Field (an upload, a list). */
function FieldMessage({ error }: { error?: string | undefined }) {
  return error ? <p class="error">{error}</p> : null;
}
