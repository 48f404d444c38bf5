import { useState } from 'preact/hooks';
import { GoodsCreate } from '../../../core/vendor/models.js';
import type { Api } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormError, Submit } from '../ui/field.js';
import { Pager } from '../ui/pager.js';
import { Done, ReadState } from '../ui/status.js';

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

function CreateGoods({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const empty = { name: '', projectName: '', level: '1', price: '' };
  const [values, setValues] = useState(empty);
  const [done, setDone] = useState<string>();
  const create = useCheckedAction(GoodsCreate, (body) => api.POST('/merchant/goods', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { ...values, level: Number(values.level), price: Number(values.price) };
    const answer = await create.submit(body);
    if (answer) {
      setDone(`Goods ${answer.id} (${answer.name}) created.`);
      setValues(empty);
      onCreated();
    }
  };
  return (
    <section aria-labelledby="create-goods-title">
      <h2 id="create-goods-title">Create goods</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Goods name" name="name" value={values.name} onValue={set('name')} error={create.errors.name} />
        <Field
          label="Project"
          name="projectName"
          hint="One of your projects"
          value={values.projectName}
          onValue={set('projectName')}
          error={create.errors.projectName}
        />
        <Field label="Level" name="level" inputMode="numeric" value={values.level} onValue={set('level')} error={create.errors.level} />
        <Field label="Price in tickets" name="price" inputMode="numeric" value={values.price} onValue={set('price')} error={create.errors.price} />
        <FormError error={create.errors.form} />
        <Submit busy={create.busy}>Create goods</Submit>
      </form>
      <Done message={done} />
    </section>
  );
}
