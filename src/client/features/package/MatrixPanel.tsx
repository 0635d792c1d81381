import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { SLOTS_PER_LEVEL, type ProgramId } from "../../../shared/constants";
import { ErrorState } from "../../components/ErrorState";
import { Money } from "../../components/Money";
import { Spinner } from "../../components/Spinner";
import { Icon } from "../../../ui/icons";
import { missedPage } from "../../../shared/pages";
import { matrixKey, useMatrix, type Matrix } from "./api/getMatrix";
import { busyLook, whileBusy } from "./busyButton";
import { CycleNav, latestCycle, standing } from "../../components/CycleNav";
import type { LevelLook, LevelView } from "./levels";
import { SlotCard } from "../../components/SlotCard";

interface MatrixPanelProps {
  program: ProgramId;
  view: LevelView;
  look: LevelLook;
  busy: boolean;
  onUnfreeze: () => void;
}

/**
 * The selected level: the slots of one of its cycles with who filled them and where the money
 * went, where it stands before freezing, and, frozen, what it misses and what unfreezing brings
 * back; or why there is nothing to show yet. Keyed by program and level by its parent, so the
 * cycle shown starts at the current one for every level.
 */
export function MatrixPanel({ program, view, look, busy, onUnfreeze }: MatrixPanelProps) {
  /** The cycle asked for, in the level's lifetime numbering; undefined: the current one. */
  const [cycle, setCycle] = useState<number | undefined>(undefined);
  const locked = view.status === "locked";
  const matrix = useMatrix(program, view.level, cycle, !locked);
  // The level's card figures (the current user, read every half minute and on every balance
  // event) changed: a slot was taken, a cycle completed, the level froze. Some of these reach the
  // member by no live event (a muted notice, a slot passed up), so the slots follow the card.
  const client = useQueryClient();
  const state = `${view.status}/${view.cycles}/${view.filled}`;
  const seen = useRef(state);
  useEffect(() => {
    if (seen.current === state) return;
    seen.current = state;
    void client.invalidateQueries({ queryKey: matrixKey(program, view.level) });
  }, [state, client, program, view.level]);

  // An unbought level: what its partners' purchases passed the member by is one click away.
  const missedHere = <MissedLink program={program} level={view.level} text={`What you missed at Level ${view.level}`} />;
  if (look === "available") {
    return (
      <section aria-live="polite" className="card flex flex-col items-center gap-2 py-8 text-center">
        <Icon name="package" className="text-3xl text-figure-blue" />
        <p className="card-title">Level {view.level} is available.</p>
        <p className="muted">Buy it to start receiving payments in its {SLOTS_PER_LEVEL[program]} slots.</p>
        {missedHere}
      </section>
    );
  }
  if (locked) {
    return (
      <section aria-live="polite" className="card flex flex-col items-center gap-2 py-8 text-center">
        <Icon name="lock" className="text-3xl muted" />
        <p className="card-title">Level {view.level} is locked.</p>
        <p className="muted">Purchase previous levels to unlock.</p>
        {missedHere}
      </section>
    );
  }
  if (matrix.isPending) return <Spinner label={`Loading Level ${view.level} slots...`} />;
  if (matrix.isError) {
    return (
      <div className="flex flex-col items-center gap-3">
        <ErrorState message={`Could not load the slots of Level ${view.level}.`} onRetry={() => void matrix.refetch()} />
        {cycle !== undefined && (
          <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={() => setCycle(undefined)}>
            Show the current cycle
          </button>
        )}
      </div>
    );
  }

  const data = matrix.data;
  const latest = latestCycle(data);
  return (
    <section aria-labelledby="matrix-title" className="card flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h2 id="matrix-title" className="card-title mb-1">
            Level {view.level} slots
          </h2>
          <p className="text-sm text-fg-soft">{standing(data)}</p>
        </div>
        <p className="muted text-sm">
          Earned: <Money value={data.earned} className="text-figure-green" />
          {data.missed > 0n && (
            <>
              {" "}
              · Missed: <Money value={data.missed} className="text-pending" />{" "}
              {data.status !== "frozen" && <MissedLink program={program} level={view.level} text="See each" />}
            </>
          )}
        </p>
      </div>
      {data.status === "frozen" && <FrozenNote program={program} level={view.level} matrix={data} busy={busy} onUnfreeze={onUnfreeze} />}
      {latest > 1 && (
        <CycleNav
          level={view.level}
          shown={matrix.isPlaceholderData ? (cycle ?? latest) : data.cycle}
          latest={latest}
          latestState={data.status === "frozen" ? "completed, froze the level" : "current"}
          loading={matrix.isPlaceholderData}
          onChange={(next) => setCycle(next >= latest ? undefined : next)}
        />
      )}
      <ol
        aria-label={`Slots of cycle ${data.cycle}`}
        aria-busy={matrix.isPlaceholderData}
        className={`grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 ${matrix.isPlaceholderData ? "opacity-60" : ""}`}
      >
        {data.slots.map((slot) => (
          <SlotCard key={slot.slot} program={program} slot={slot} />
        ))}
      </ol>
    </section>
  );
}

/** To the missed earnings of one level (PAGES.missed). */
function MissedLink({ program, level, text }: { program: ProgramId; level: number; text: string }) {
  return (
    <Link to={missedPage({ program, level })} className="link text-sm">
      {text}
    </Link>
  );
}

interface FrozenNoteProps {
  program: ProgramId;
  level: number;
  matrix: Pick<Matrix, "missed" | "unfreezeCost">;
  busy: boolean;
  onUnfreeze: () => void;
}

/** A frozen level: what it has missed, what unfreezing costs and what it brings back. */
function FrozenNote({ program, level, matrix, busy, onUnfreeze }: FrozenNoteProps) {
  return (
    <div className="flex gap-3 rounded-lg border border-frozen/40 bg-frozen/12 p-3 text-sm">
      <Icon name="snowflake" className="mt-0.5 text-xl text-frozen" />
      <div className="flex min-w-0 flex-col gap-2">
        <p className="font-semibold text-frozen">Level {level} is frozen.</p>
        <p>
          While it is frozen, payments at this level pass you by and go to members above you. Missed so far:{" "}
          <Money value={matrix.missed} className="font-semibold" />. <MissedLink program={program} level={level} text="See each missed payment" />
        </p>
        <p>
          Unfreezing costs <Money value={matrix.unfreezeCost} className="font-semibold" />: the level starts a new cycle and
          receives payments again.
        </p>
        <button type="button" className={`btn btn-primary btn-sm focus-ring self-start ${busyLook(busy)}`} {...whileBusy(busy, onUnfreeze)}>
          <span>
            Unfreeze for <Money value={matrix.unfreezeCost} />
          </span>
        </button>
      </div>
    </div>
  );
}
