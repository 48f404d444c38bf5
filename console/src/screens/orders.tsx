import type { Api } from '../session.js';
import { coinOf } from '../ui/amount.js';
import { useRead } from '../ui/call.js';
import { ReadState } from '../ui/status.js';
import { RechargeOrders } from './recharge-orders.js';
import { StrandedPayments } from './stranded.js';

/** Money in: the studio's recharge orders and the payments that matched none. */
export function OrdersScreen({ api }: { api: Api }) {
  const projects = useRead(() => api.GET('/merchant/projects'), []);
  if (!projects.data) return <ReadState loading={projects.loading} error={projects.error} what="your projects" />;
  const names = projects.data.map((p) => p.project_name);
  // Each project's coin, so its amounts show in the coin beside its base units.
  const coins = Object.fromEntries(projects.data.map((p) => [p.project_name, coinOf(p.coin_type, p.precison)]));
  return (
    <>
      <RechargeOrders api={api} projects={names} coins={coins} />
      <StrandedPayments api={api} projects={names} coins={coins} />
    </>
  );
}
