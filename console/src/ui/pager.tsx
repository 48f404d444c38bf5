import { useState } from 'preact/hooks';

/** Previous and next page of a paged list, with where the reader is. */
export function Pager({ page, pages, onPage, what }: { page: number; pages: number; onPage: (page: number) => void; what: string }) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={`Pages of ${what}`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/**
 * Where a cursor-paged list is: the cursor of the page shown (undefined: the first) and the ones before it, so
 * Previous goes back; `reset` returns to the first page (a filter changed).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    back: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    forward: (next: string) => setCursors([...cursors, next]),
    reset: () => setCursors([]),
  };
}

/** Previous and next page of a cursor-paged list: `next` is the answer's cursor of the page after (null on the last). */
export function CursorPager({ pages, next, what }: { pages: ReturnType<typeof useCursorPages>; next: string | null | undefined; what: string }) {
  return (
    <nav class="pager" aria-label={`Pages of ${what}`}>
      <button type="button" disabled={!pages.back} onClick={() => pages.back?.()}>
        Previous page
      </button>
      <button type="button" disabled={!next} onClick={() => next && pages.forward(next)}>
        Next page
      </button>
    </nav>
  );
}
