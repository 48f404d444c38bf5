/**
 * The ledger invariant over a table scan (test/support/table-snapshot.ts): every balance equals the sum of its
 * ledger entries' changes, and none is below zero. Ticket balances (`USER#<uid>` `TICKETS#<project>#<level>`,
 * entries `LEDGER#…` with projectName, level and change, a page of entries counting as its summed change, and the
 * entries the balance item holds: core/tickets/balances.ts, core/tickets/held-ledger.ts) and the partner store's
 * (`STOREUSER#<uid>` `BAL#<holding>#<code>`, entries `LEDGER#…` with holding, code and change, or a grant's
 * `changes` of each: core/partner-store/wallet.ts). Answers one line per balance that breaks it.
 */
export function ledgerMismatches(items: Record<string, unknown>[]): string[] {
  const balances = new Map<string, number>();
  const sums = new Map<string, number>();
  for (const item of items) {
    const pk = String(item.pk);
    const sk = String(item.sk);
    if (pk.startsWith('USER#') && sk.startsWith('TICKETS#')) {
      balances.set(`${pk} ${sk}`, Number(item.balance ?? 0));
      for (const held of (item.entries ?? []) as { change: unknown }[]) add(sums, `${pk} ${sk}`, Number(held.change));
    } else if (pk.startsWith('USER#') && sk.startsWith('LEDGER#'))
      add(sums, `${pk} TICKETS#${String(item.projectName)}#${String(item.level)}`, Number(item.change));
    else if (pk.startsWith('STOREUSER#') && sk.startsWith('BAL#')) balances.set(`${pk} ${sk}`, Number(item.balance ?? 0));
    else if (pk.startsWith('STOREUSER#') && sk.startsWith('LEDGER#'))
      for (const change of (item.changes ?? [item]) as Record<string, unknown>[])
        add(sums, `${pk} BAL#${String(change.holding)}#${String(change.code)}`, Number(change.change));
  }
  const mismatches: string[] = [];
  for (const key of new Set([...balances.keys(), ...sums.keys()])) {
    const balance = balances.get(key) ?? 0;
    const sum = sums.get(key) ?? 0;
    if (balance !== sum) mismatches.push(`${key}: balance ${balance}, ledger ${sum}`);
    if (balance < 0) mismatches.push(`${key}: balance ${balance} below zero`);
  }
  return mismatches;
}

const add = (sums: Map<string, number>, key: string, change: number) => sums.set(key, (sums.get(key) ?? 0) + change);
