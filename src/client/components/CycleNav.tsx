import { FREEZE_AT_CYCLES } from "../../shared/constants";
import type { Matrix } from "../features/package/api/getMatrix";

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

/**
 * The last cycle there is to show, in lifetime numbering (what the server shows without
 * `?cycle=`): active, the one being filled; frozen, the one that froze it (the next cycle only
 * starts on unfreezing, and the server refuses it until then).
 */
export const latestCycle = ({ status, cyclesCompleted }: Pick<Matrix, "status" | "cyclesCompleted">) =>
  status === "active" ? cyclesCompleted + 1 : Math.max(cyclesCompleted, 1);

/**
 * Where the level stands, its cycles numbered over the level's whole life as the cycle pager
 * numbers them: "Cycle 1 of 2 before freezing" in the first activation; after an unfreeze,
 * "Cycle 3 · 1 of 2 before freezing again" (the third cycle is the first since unfreezing), so
 * "cycle 3" means one cycle wherever the panel says it. Frozen: after which cycle.
 */
export function standing({ status, cycles, cyclesCompleted }: Pick<Matrix, "status" | "cycles" | "cyclesCompleted">): string {
  // Completed before this activation began: 0 until the first unfreeze.
  const before = Math.max(0, cyclesCompleted - cycles);
  if (status === "frozen") return before === 0 ? `Frozen after ${FREEZE_AT_CYCLES} cycles` : `Frozen after cycle ${cyclesCompleted} (${cycles} since unfreezing)`;
  const ofActivation = `${Math.min(cycles + 1, FREEZE_AT_CYCLES)} of ${FREEZE_AT_CYCLES} before freezing`;
  return before === 0 ? `Cycle ${ofActivation}` : `Cycle ${cyclesCompleted + 1} · ${ofActivation} again`;
}
