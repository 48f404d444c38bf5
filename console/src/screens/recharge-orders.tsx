import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useRead } from '../ui/call.js';
import { Select } from '../ui/field.js';
import { CursorPager, useCursorPages } from '../ui/pager.js';
import { type Coin, formatAmount } from '../ui/amount.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

const ORDER_STATES = ['pending', 'paid', 'cancelled', 'refunded'];
type Shown = 'all' | 'paid' | 'pending';

/** The studio's recharge orders across its projects, newest first, a page at a time, with a filter. */
export function RechargeOrders({ api, projects, coins }: { api: Api; projects: string[]; coins: Record<string, Coin> }) {
  const [status, setStatus] = useState<Shown>('all');
  const [project, setProject] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const orders = useRead(
    () => api.GET('/merchant/orders', { params: { query: { status, limit: 20, ...(project ? { project } : {}), ...(cursor ? { cursor } : {}) } } }),
    [status, project, cursor],
  );
  const page = orders.data;
  const filter = (apply: () => void) => {
    apply();
    pages.reset();
  };
  return (
    <section aria-labelledby="recharge-orders-title">
      <h2 id="recharge-orders-title">Recharge orders</h2>
      <Select
        label="Orders shown"
        name="order-status"
        value={status}
        options={[
          { value: 'all', label: 'All' },
          { value: 'paid', label: 'Paid' },
          { value: 'pending', label: 'Waiting for payment' },
        ]}
        onValue={(value) => filter(() => setStatus(value as Shown))}
      />
      <Select
        label="Of the project"
        name="order-project"
        value={project}
        options={[{ value: '', label: 'Every project' }, ...projects.map((p) => ({ value: p, label: p }))]}
        onValue={(value) => filter(() => setProject(value))}
      />
      <button type="button" class="refresh" onClick={orders.reload} disabled={orders.loading}>
        Refresh orders
      </button>
      <ReadState loading={orders.loading} error={orders.error} what="your orders" />
      {page && page.items.length === 0 && <p>No orders on this page.</p>}
      {page && page.items.length > 0 && (
        <table>
          <caption class="visually-hidden">Recharge orders, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Project</th>
              <th scope="col">Level</th>
              <th scope="col">Price</th>
              <th scope="col">Tickets</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Paid</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((order) => (
              <tr key={order.id}>
                <td>{order.bill_no}</td>
                <td>{order.project_name}</td>
                <td>{order.level}</td>
                <td>{coins[order.project_name] ? formatAmount(order.amount_base, coins[order.project_name]!) : `${order.amount_base} base units`}</td>
                <td>{order.tickets}</td>
                <td>{ORDER_STATES[order.status] ?? order.status}</td>
                <td>
                  <Time iso={order.created_at} />
                </td>
                <td>
                  <Time iso={order.paid_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager pages={pages} next={page?.next} what="orders" />
    </section>
  );
}
