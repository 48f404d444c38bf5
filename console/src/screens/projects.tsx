import { useState } from 'preact/hooks';
import { LevelSave, ProjectCreate } from '../../../core/payments/models.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { type Coin, coinOf, formatAmount } from '../ui/amount.js';
import { AmountField, baseOf, emptyAmount } from '../ui/amount-field.js';
import { Field, FormEnd, Select } from '../ui/field.js';
import { ReadState } from '../ui/status.js';

/** The studio's projects (what players buy tickets of), their price levels and the levels' store products. */
export function ProjectsScreen({ api }: { api: Api }) {
  const projects = useRead(() => api.GET('/merchant/projects'), []);
  const [chosen, setChosen] = useState<string>();
  const list = projects.data ?? [];
  const project = list.find((p) => p.project_name === chosen) ?? list[0];
  return (
    <>
      <section aria-labelledby="projects-title">
        <h2 id="projects-title">Projects</h2>
        <ReadState loading={projects.loading} error={projects.error} what="your projects" />
        {projects.data && list.length === 0 && <p>No projects yet: create one below.</p>}
        {list.length > 0 && (
          <table>
            <caption class="visually-hidden">Your projects</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Coin</th>
                <th scope="col">Receiving address</th>
                <th scope="col">On sale</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.project_name}>
                  <td>{p.project_name}</td>
                  <td>
                    <span title={p.coin_type}>{coinOf(p.coin_type, p.precison).symbol}</span> ({p.precison} decimals)
                  </td>
                  <td class="mono">{p.receive_address}</td>
                  <td>{p.status === 1 ? 'yes' : 'withdrawn'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {project && (
        <Levels
          api={api}
          projects={list.map((p) => p.project_name)}
          project={project.project_name}
          coin={coinOf(project.coin_type, project.precison)}
          onProject={setChosen}
        />
      )}
      <CreateProject api={api} onCreated={projects.reload} />
    </>
  );
}

function Levels({ api, projects, project, coin, onProject }: { api: Api; projects: string[]; project: string; coin: Coin; onProject: (name: string) => void }) {
  const levels = useRead(() => api.GET('/account/user/project/level', { params: { query: { project } } }), [project]);
  const [values, setValues] = useState({ level: '1', tickets: '', apple_product_id: '', google_product_id: '' });
  const [amount, setAmount] = useState(emptyAmount());
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(LevelSave, (body) => api.POST('/merchant/projects/levels', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = {
      project_name: project,
      level: Number(values.level),
      amount: baseOf(amount, coin),
      tickets: Number(values.tickets),
      apple_product_id: values.apple_product_id || null,
      google_product_id: values.google_product_id || null,
    };
    if (await save.submit(body)) {
      setDone(`Level ${body.level} of ${project} saved.`);
      levels.reload();
    }
  };
  return (
    <section aria-labelledby="levels-title">
      <h2 id="levels-title">Price levels</h2>
      <Select label="Project" name="project" value={project} options={projects.map((name) => ({ value: name, label: name }))} onValue={onProject} />
      <ReadState loading={levels.loading} error={levels.error} what="price levels" />
      {levels.data && (
        <table>
          <caption class="visually-hidden">Price levels of {project}</caption>
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col">Price</th>
              <th scope="col">Tickets</th>
              <th scope="col">App Store product</th>
              <th scope="col">Google Play product</th>
            </tr>
          </thead>
          <tbody>
            {levels.data.map((level) => (
              <tr key={level.level}>
                <td>{level.level}</td>
                <td>{formatAmount(level.amount_base, coin)}</td>
                <td>{level.tickets}</td>
                <td>{level.apple_product_id ?? '—'}</td>
                <td>{level.google_product_id ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Set a price level</h3>
      <form onSubmit={submit} noValidate>
        <Field label="Level" name="level" inputMode="numeric" value={values.level} onValue={set('level')} error={save.errors.level} />
        <AmountField label="Price" name="amount" coin={coin} value={amount} onValue={setAmount} error={save.errors.amount} />
        <Field label="Tickets" name="tickets" inputMode="numeric" value={values.tickets} onValue={set('tickets')} error={save.errors.tickets} />
        <Field
          label="App Store product id"
          name="apple_product_id"
          hint="Empty: none"
          value={values.apple_product_id}
          onValue={set('apple_product_id')}
          error={save.errors.apple_product_id}
        />
        <Field
          label="Google Play product id"
          name="google_product_id"
          hint="Empty: none"
          value={values.google_product_id}
          onValue={set('google_product_id')}
          error={save.errors.google_product_id}
        />
        <FormEnd busy={save.busy} error={save.errors.form ?? save.errors.project_name} done={done}>
          Save price level
        </FormEnd>
      </form>
    </section>
  );
}

function CreateProject({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const empty = { project_name: '', description: '', receive_address: '', coin_type: '0x2::sui::SUI', precison: '9' };
  const [values, setValues] = useState(empty);
  const [done, setDone] = useState<string>();
  const create = useCheckedAction(ProjectCreate, (body) => api.POST('/merchant/projects', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = { ...values, precison: Number(values.precison) };
    if (await create.submit(body)) {
      setDone(`Project ${values.project_name} created.`);
      setValues(empty);
      onCreated();
    }
  };
  return (
    <section aria-labelledby="create-project-title">
      <h2 id="create-project-title">Create a project</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Project name" name="project_name" value={values.project_name} onValue={set('project_name')} error={create.errors.project_name} />
        <Field label="Description" name="description" value={values.description} onValue={set('description')} error={create.errors.description} />
        <Field
          label="Receiving address"
          name="receive_address"
          hint="The Sui address players pay to"
          value={values.receive_address}
          onValue={set('receive_address')}
          error={create.errors.receive_address}
        />
        <Field label="Coin type" name="coin_type" value={values.coin_type} onValue={set('coin_type')} error={create.errors.coin_type} />
        <Field label="Coin decimals" name="precison" inputMode="numeric" value={values.precison} onValue={set('precison')} error={create.errors.precison} />
        <FormEnd busy={create.busy} error={create.errors.form} done={done}>
          Create project
        </FormEnd>
      </form>
    </section>
  );
}
