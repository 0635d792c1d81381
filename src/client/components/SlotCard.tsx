import type { ProgramId } from "../../shared/constants";
import { DateTime } from "./DateTime";
import { Money } from "./Money";
import { Icon } from "../../ui/icons";
import type { MatrixSlot } from "../features/package/api/getMatrix";
import { completesCycle, passesUp, payee } from "../features/package/levels";

/**
 * Whether the slot passes the money up: a filled slot says what happened (its outcome); an empty
 * one, what will happen, from the slot rule.
 */
export const slotPassesUp = (program: ProgramId, slot: MatrixSlot) =>
  slot.filled && slot.outcome ? slot.outcome === "passed_up" : passesUp(program, slot.slot);

/**
 * One slot of a cycle: who filled it, when, and where the money went: "Paid to you" or "Passed
 * up to ...". Pass-up slots, filled or not, are violet with the up arrow and say so in words;
 * empty slots are dashed. `owner`: the matrix's owner by name, when the reader is someone else
 * (the operator's view of a member's matrix); the member reads "you".
 */
export function SlotCard({ program, slot, owner }: { program: ProgramId; slot: MatrixSlot; owner?: string }) {
  const up = slotPassesUp(program, slot);
  const frame = slot.filled
    ? up
      ? "border-figure-violet/60 bg-figure-violet/15"
      : "border-active/40 bg-active/12"
    : up
      ? "border-dashed border-figure-violet/60"
      : "border-dashed border-line-subtle";
  return (
    <li data-outcome={up ? "passed_up" : "paid"} className={`flex min-w-0 flex-col gap-1 rounded-lg border p-2 sm:p-3 ${frame}`}>
      <p className="muted flex items-center justify-between gap-1 text-xs">
        Slot {slot.slot}
        {up && <Icon name="up" className="text-figure-violet" />}
      </p>
      <p className="font-semibold">{slot.filled ? "Filled" : "Empty"}</p>
      {slot.filled ? (
        <>
          <p className="truncate text-sm">{slot.user?.name ?? "Unknown partner"}</p>
          {slot.filledAt && (
            <p className="muted text-xs">
              <DateTime value={slot.filledAt} />
            </p>
          )}
          {/* The icon stays beside the first line of its text, however narrow the slot. */}
          <p className={`flex items-start gap-1 text-sm ${up ? "text-figure-violet" : "text-active"}`}>
            <Icon name={up ? "up" : "check"} className="mt-0.5" />
            <span className="min-w-0 break-words">{up ? `Passed up to ${payee(slot.to)}` : `Paid to ${owner ?? "you"}`}</span>
          </p>
          {slot.amount !== null && <Money value={slot.amount} className="text-sm text-fg" />}
        </>
      ) : (
        <p className={`flex items-center gap-1 text-xs ${up ? "text-figure-violet" : "muted"}`}>
          {up && <Icon name="up" />}
          {up ? (completesCycle(program, slot.slot) ? "Passes up, completes the cycle" : "Passes up") : `Pays ${owner ?? "you"}`}
        </p>
      )}
    </li>
  );
}
