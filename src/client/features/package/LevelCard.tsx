import { useLayoutEffect, useRef } from "react";
import { FREEZE_AT_CYCLES } from "../../../shared/constants";
import { Money } from "../../components/Money";
import { StatusBadge } from "../../components/StatusBadge";
import { Icon } from "../../../ui/icons";
import { busyLook, whileBusy } from "./busyButton";
import type { LevelLook, LevelView } from "./levels";

interface LevelCardProps {
  view: LevelView;
  /** "available": locked but buyable now (level 1, or the one above the highest owned). */
  look: LevelLook;
  slotCount: number;
  selected: boolean;
  busy: boolean;
  /** This level's action just succeeded (its button goes with the level's new state). */
  justDone: boolean;
  onSelect: () => void;
  onBuy: () => void;
  onUnfreeze: () => void;
}

/** A locked level the member can buy now: a word and an icon, not only a colour. */
function AvailableBadge() {
  return (
    <span className="badge inline-flex items-center gap-1 border-figure-blue/40 bg-figure-blue/12 text-figure-blue">
      <Icon name="package" />
      Available
    </span>
  );
}

/** "2 cycles" before an active level freezes, "this cycle" when the current one is its last. */
export function cyclesLeftText(cycles: number): string {
  const left = Math.max(1, FREEZE_AT_CYCLES - cycles);
  return left === 1 ? "this cycle" : `${left} cycles`;
}

/** One level: price, state and the one action that state allows. */
export function LevelCard({ view, look, slotCount, selected, busy, justDone, onSelect, onBuy, onUnfreeze }: LevelCardProps) {
  const { level, status, price } = view;
  const header = useRef<HTMLButtonElement>(null);
  const hasAction = status === "locked" || status === "frozen";
  // When an action succeeds, its button (here, or the panel's Unfreeze) goes once the level's new
  // state shows: the keyboard focus it held would fall to the page, so the level's own button
  // takes it. Focus anywhere else is left where it is.
  useLayoutEffect(() => {
    if (!justDone || hasAction) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) header.current?.focus();
  }, [justDone, hasAction]);
  return (
    <article className={`card flex h-full flex-col gap-3 ${selected ? "ring-2 ring-line-strong" : ""}`}>
      <button
        ref={header}
        type="button"
        aria-pressed={selected}
        onClick={onSelect}
        className="focus-ring flex flex-wrap items-center justify-between gap-2 rounded text-left"
      >
        <span className="text-lg font-semibold text-fg">Level {level}</span>
        {look === "available" ? <AvailableBadge /> : <StatusBadge status={status} />}
      </button>
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 text-sm">
        <dt className="muted">Cost</dt>
        <dd className="text-right">{price ? <Money value={price.cost} /> : "—"}</dd>
        {status === "frozen" && (
          <>
            <dt className="muted">Unfreeze</dt>
            <dd className="text-right">{price ? <Money value={price.unfreezeCost} /> : "—"}</dd>
          </>
        )}
        {/* Cycles left, not a cycle's number: the card knows only this activation's count, and the
            panel numbers cycles over the level's whole life (cycle 3 after an unfreeze). */}
        {status === "active" && (
          <>
            <dt className="muted">Freezes after</dt>
            <dd className="text-right tabular-nums">{cyclesLeftText(view.cycles)}</dd>
          </>
        )}
        {/* A frozen level's slots are emptied; what filled them is in its panel, cycle by cycle. */}
        {status === "active" && (
          <>
            <dt className="muted">Slots</dt>
            <dd className="text-right tabular-nums">
              {view.filled}/{slotCount} filled
            </dd>
          </>
        )}
      </dl>
      {look === "locked" && level > 1 && <p className="muted m-0 text-xs">Buy Level {level - 1} first</p>}
      {status === "locked" && (
        <button
          type="button"
          className={`btn btn-sm focus-ring mt-auto ${look === "available" ? "btn-primary" : "btn-secondary"} ${busyLook(busy)}`}
          {...whileBusy(busy, onBuy)}
        >
          Buy Lvl {level}
        </button>
      )}
      {status === "frozen" && (
        <button type="button" className={`btn btn-secondary btn-sm focus-ring mt-auto ${busyLook(busy)}`} {...whileBusy(busy, onUnfreeze)}>
          Unfreeze Lvl {level}
        </button>
      )}
    </article>
  );
}
