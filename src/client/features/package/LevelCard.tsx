import { Money } from "../../components/Money";
import { StatusBadge } from "../../components/StatusBadge";
import type { LevelView } from "./levels";

interface LevelCardProps {
  view: LevelView;
  /** False for a locked level above the next one: its button stays (to say why) but is muted. */
  buyable: boolean;
  slotCount: number;
  selected: boolean;
  busy: boolean;
  onSelect: () => void;
  onBuy: () => void;
  onUnfreeze: () => void;
}

/** One level: price, state and the one action that state allows. */
export function LevelCard({ view, buyable, slotCount, selected, busy, onSelect, onBuy, onUnfreeze }: LevelCardProps) {
  const { level, status, price } = view;
  return (
    <article className={`card flex flex-col gap-3 ${selected ? "ring-2 ring-line-strong" : ""}`}>
      <button
        type="button"
        aria-pressed={selected}
        onClick={onSelect}
        className="focus-ring flex flex-wrap items-center justify-between gap-2 rounded text-left"
      >
        <span className="text-lg font-semibold text-fg">Level {level}</span>
        <StatusBadge status={status} />
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
        {status !== "locked" && (
          <>
            <dt className="muted">Slots</dt>
            <dd className="text-right tabular-nums">
              {view.filled}/{slotCount} filled
            </dd>
          </>
        )}
      </dl>
      {status === "locked" && (
        <button type="button" className={`btn btn-sm focus-ring ${buyable ? "btn-primary" : "btn-secondary"}`} disabled={busy} onClick={onBuy}>
          Buy Lvl {level}
        </button>
      )}
      {status === "frozen" && (
        <button type="button" className="btn btn-secondary btn-sm focus-ring" disabled={busy} onClick={onUnfreeze}>
          Unfreeze Lvl {level}
        </button>
      )}
    </article>
  );
}
