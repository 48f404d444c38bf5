/** A bench verdict: pass, or a missed budget marked so it stands out in the printed tables. */
export const mark = (pass: boolean) => (pass ? 'pass' : '**FAIL**');

/** A markdown table. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const lines = [headers, headers.map(() => '---'), ...rows.map((r) => r.map(String))];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
