import { useEffect, useState } from 'preact/hooks';
import { GoodsCreate } from '../../../core/goods/models.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd, Select } from '../ui/field.js';
import { Pager } from '../ui/pager.js';
import { ReadState } from '../ui/status.js';

const PAGE_SIZE = 10;

/** The studio's goods (what vendor partners order, priced in tickets of a project's level), and a form for new ones. */
export function GoodsScreen({ api }: { api: Api }) {
  const [page, setPage] = useState(1);
  // The service counts pages from 0; the console shows them from 1.
  const goods = useRead(() => api.GET('/merchant/goods', { params: { query: { page: page - 1, pageSize: PAGE_SIZE } } }), [page]);
  const list = goods.data;
  const pages = list ? Math.max(1, Math.ceil(Number(list.total) / PAGE_SIZE)) : 1;
  return (
    <>
      <section aria-labelledby="goods-title">
        <h2 id="goods-title">Your goods</h2>
        <ReadState loading={goods.loading} error={goods.error} what="your goods" />
        {list && list.goods.length === 0 && <p>No goods yet.</p>}
        {list && list.goods.length > 0 && (
          <table>
            <caption class="visually-hidden">Your goods</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Project</th>
                <th scope="col">Level</th>
                <th scope="col">Price (tickets)</th>
                <th scope="col">On sale</th>
              </tr>
            </thead>
            <tbody>
              {list.goods.map((item) => (
                <tr key={item.id}>
                  <td>{item.id}</td>
                  <td>{item.name}</td>
                  <td>{item.projectName}</td>
                  <td>{item.level}</td>
                  <td>{item.price}</td>
                  <td>{item.status === 1 ? 'yes' : 'withdrawn'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pages={pages} onPage={setPage} what="goods" />
      </section>
      <CreateGoods api={api} onCreated={goods.reload} />
    </>
  );
}

/** create_goods: its project and that project's price level chosen from lists, as the studio has them. */
function CreateGoods({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const projects = useRead(() => api.GET('/merchant/projects'), []);
  const names = (projects.data ?? []).map((p) => p.project_name);
  const empty = { name: '', projectName: '', level: '', price: '' };
  const [values, setValues] = useState(empty);
  const project = values.projectName || names[0] || '';
  const [done, setDone] = useState<string>();
  const create = useCheckedAction(GoodsCreate, (body) => api.POST('/merchant/goods', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = {
      ...values,
      projectName: project,
      level: values.level ? Number(values.level) : Number.NaN,
      price: values.price.trim() ? Number(values.price) : Number.NaN,
    };
    const answer = await create.submit(body);
    if (answer) {
      setDone(`Goods ${answer.id} (${answer.name}) created.`);
      setValues({ ...empty, projectName: project, level: values.level });
      onCreated();
    }
  };
  if (projects.data && names.length === 0)
    return (
      <section aria-labelledby="create-goods-title">
        <h2 id="create-goods-title">Create goods</h2>
        <p>Goods are priced in tickets of a project: create a project first (Projects and prices).</p>
      </section>
    );
  return (
    <section aria-labelledby="create-goods-title">
      <h2 id="create-goods-title">Create goods</h2>
      <ReadState loading={projects.loading} error={projects.error} what="your projects" />
      <form onSubmit={submit} noValidate>
        <Field label="Goods name" name="name" value={values.name} onValue={set('name')} error={create.errors.name} />
        <Select
          label="Project"
          name="projectName"
          value={project}
          options={names.map((name) => ({ value: name, label: name }))}
          onValue={(projectName) => setValues({ ...values, projectName, level: '' })}
          error={create.errors.projectName}
        />
        {project && <LevelChoice key={project} api={api} project={project} value={values.level} onValue={set('level')} error={create.errors.level} />}
        <Field label="Price in tickets" name="price" inputMode="numeric" value={values.price} onValue={set('price')} error={create.errors.price} />
        <FormEnd busy={create.busy} error={create.errors.form} done={done}>
          Create goods
        </FormEnd>
      </form>
    </section>
  );
}

/** The price levels of a project, as a list (its first chosen until another is). */
function LevelChoice(props: { api: Api; project: string; value: string; onValue: (level: string) => void; error?: string | undefined }) {
  const { api, project, value, onValue, error } = props;
  const levels = useRead(() => api.GET('/account/user/project/level', { params: { query: { project } } }), [project]);
  const first = levels.data?.[0];
  useEffect(() => {
    if (!value && first) onValue(String(first.level));
  }, [value, first]);
  if (!levels.data) return <ReadState loading={levels.loading} error={levels.error} what="the project's price levels" />;
  if (levels.data.length === 0) return <p class="error">This project has no price level yet: set one under Projects and prices.</p>;
  return (
    <Select
      label="Price level"
      name="level"
      value={value}
      options={levels.data.map((l) => ({ value: String(l.level), label: `Level ${l.level}: ${l.tickets} tickets` }))}
      onValue={onValue}
      error={error}
    />
  );
}
