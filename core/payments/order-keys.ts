/**
 * Pay order keys, shared by the order operations and the vendor ones.
 * - "order by id": pk `ORDER#<id>`, sk `ORDER`;
 * - "orders of a user, newest first": gsi1pk `USER_ORDERS#<uid>`, gsi1sk zero-padded id;
 * - "paid orders of a user, newest first": sparse gsi2pk `PAID#<uid>`, gsi2sk `<paid at>#<id>`;
 * - "order a transaction paid": pk `TXUSE#<digest>`, sk `TXUSE` (a transaction pays one order).
 * An order's bill number is `PO` and its zero-padded id: the payment carries it, and the order is found from it.
 */
export const orderKey = (id: number) => ({ pk: `ORDER#${id}`, sk: 'ORDER' });
export const txUseKey = (digest: string) => ({ pk: `TXUSE#${digest}`, sk: 'TXUSE' });

export const billNoOf = (orderId: number) => `PO${String(orderId).padStart(10, '0')}`;

/** The order id a bill number names, or undefined for a bill number that is not an order's. */
export function orderIdOfBill(billNo: string): number | undefined {
  const match = /^PO(\d{10,})$/.exec(billNo);
  return match ? Number(match[1]) : undefined;
}
