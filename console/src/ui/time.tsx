/** Date and time in the viewer's own zone and language (the browser's), such as "14 Mar 2026, 10:30". */
const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO time as the viewer reads it: the raw text when it is not a time. */
export function localTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : local.format(time);
}

/** A time the service answered, shown in the viewer's zone; the ISO value stays in `datetime` and the tooltip. */
export function Time({ iso, none = '—' }: { iso: string | null | undefined; none?: string }) {
  if (!iso) return <>{none}</>;
  return (
    <time dateTime={iso} title={iso}>
      {localTime(iso)}
    </time>
  );
}
