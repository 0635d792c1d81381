interface CycleNavProps {
  level: number;
  /** The cycle shown, in the level's lifetime numbering (1 is the first). */
  shown: number;
  /** The last cycle there is: completed cycles + 1. */
  latest: number;
  /** What the latest cycle is: "current", or for a frozen level the one that starts on unfreezing. */
  latestState: string;
  /** Another cycle is loading; the one shown stays until it arrives. */
  loading: boolean;
  onChange: (cycle: number) => void;
}

/**
 * Previous / next cycle of a level. The buttons stay focusable at either end (aria-disabled,
 * not disabled) so keyboard focus is not lost, and the cycle shown is announced.
 */
export function CycleNav({ level, shown, latest, latestState, loading, onChange }: CycleNavProps) {
  const atFirst = shown <= 1;
  const atLast = shown >= latest;
  const state = shown >= latest ? latestState : "completed";
  return (
    <nav aria-label={`Cycles of Level ${level}`} className="flex flex-wrap items-center justify-between gap-2 sm:flex-nowrap sm:gap-3">
      <button
        type="button"
        className={`btn btn-secondary btn-sm focus-ring ${atFirst ? "cursor-not-allowed opacity-60" : ""}`}
        aria-disabled={atFirst}
        onClick={() => !atFirst && onChange(shown - 1)}
      >
        <span aria-hidden="true">‹</span> Previous cycle
      </button>
      <p aria-live="polite" aria-atomic="true" className="muted order-first w-full text-center text-sm sm:order-none sm:w-auto">
        {loading ? "Loading cycle..." : `Showing cycle ${shown} of ${latest} (${state})`}
      </p>
      <button
        type="button"
        className={`btn btn-secondary btn-sm focus-ring ${atLast ? "cursor-not-allowed opacity-60" : ""}`}
        aria-disabled={atLast}
        onClick={() => !atLast && onChange(shown + 1)}
      >
        Next cycle <span aria-hidden="true">›</span>
      </button>
    </nav>
  );
}
