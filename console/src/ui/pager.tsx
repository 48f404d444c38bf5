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
