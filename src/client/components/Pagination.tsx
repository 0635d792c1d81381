interface PaginationProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** Disables the buttons while the next page loads, so clicks do not skip pages. */
  busy?: boolean;
}

export function Pagination({ page, totalPages, onChange, busy = false }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-3">
      <button type="button" className="btn btn-secondary btn-sm focus-ring" disabled={busy || page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </button>
      <span className="muted text-sm" aria-live="polite">
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        className="btn btn-secondary btn-sm focus-ring"
        disabled={busy || page >= totalPages}
        onClick={() => onChange(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
