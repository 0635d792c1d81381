import type { ProgramId } from "../../../shared/constants";
import { ErrorState } from "../../components/ErrorState";
import { Money } from "../../components/Money";
import { Spinner } from "../../components/Spinner";
import { Icon } from "../../../ui/icons";
import { useMatrix } from "./api/getMatrix";
import type { LevelView } from "./levels";

/** The selected level: its slots with the partners in them, or why it cannot be shown. */
export function MatrixPanel({ program, view }: { program: ProgramId; view: LevelView }) {
  const locked = view.status === "locked";
  const matrix = useMatrix(program, view.level, !locked);

  if (locked) {
    return (
      <section aria-live="polite" className="card flex flex-col items-center gap-2 py-8 text-center">
        <Icon name="lock" className="text-3xl muted" />
        <p className="card-title">Level {view.level} is locked.</p>
        <p className="muted">Purchase previous levels to unlock.</p>
      </section>
    );
  }
  if (matrix.isPending) return <Spinner label={`Loading Level ${view.level} slots...`} />;
  if (matrix.isError) {
    return <ErrorState message={`Could not load the slots of Level ${view.level}.`} onRetry={() => void matrix.refetch()} />;
  }

  const { slots, cycles, earned } = matrix.data;
  return (
    <section aria-labelledby="matrix-title" className="card flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="matrix-title" className="card-title">
          Level {view.level} slots
        </h2>
        <p className="muted text-sm">
          Cycles: <span className="tabular-nums">{cycles}</span> · Earned: <Money value={earned} className="text-figure-green" />
        </p>
      </div>
      <ol className="grid grid-cols-3 gap-2 sm:gap-3">
        {slots.map((slot) => (
          <li
            key={slot.slot}
            className={`min-w-0 rounded-lg border p-2 sm:p-3 ${slot.filled ? "border-active/40 bg-active/12" : "border-dashed border-line-subtle"}`}
          >
            <p className="muted text-xs">Slot {slot.slot}</p>
            <p className="font-semibold">{slot.filled ? "Filled" : "Empty"}</p>
            {slot.filled && <p className="truncate text-sm">{slot.user?.name ?? "Unknown partner"}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
