import type { ComponentChildren } from 'preact';

/** A table of what each rank pays: a reward table's rows, or a league tier's. */
export function RewardRows({
  caption,
  rows,
  amount,
}: {
  caption: ComponentChildren;
  rows: readonly { rank: number; amount_base: string }[];
  amount: (base: string) => string;
}) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Reward</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.rank}>
            <td>{row.rank}</td>
            <td>{amount(row.amount_base)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
