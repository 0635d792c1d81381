import type { KeyboardEvent } from "react";
import { PROGRAMS, type ProgramId } from "../../../shared/constants";

export const tabId = (program: ProgramId) => `program-tab-${program}`;
export const panelId = (program: ProgramId) => `program-panel-${program}`;

/** The 3P / 6P switch, as an ARIA tab list: arrow keys move between tabs. */
export function ProgramTabs({ value, onChange }: { value: ProgramId; onChange: (program: ProgramId) => void }) {
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const step = event.key === "ArrowRight" ? 1 : -1;
    const next = PROGRAMS[(PROGRAMS.indexOf(value) + step + PROGRAMS.length) % PROGRAMS.length]!;
    onChange(next);
    document.getElementById(tabId(next))?.focus();
  }

  return (
    <div role="tablist" aria-label="Programs" className="inline-flex gap-2" onKeyDown={onKeyDown}>
      {PROGRAMS.map((program) => {
        const selected = program === value;
        return (
          <button
            key={program}
            id={tabId(program)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId(program)}
            tabIndex={selected ? 0 : -1}
            className={`btn focus-ring ${selected ? "btn-primary" : "btn-secondary"}`}
            onClick={() => onChange(program)}
          >
            {program.toUpperCase()}
          </button>
        );
      })}
    </div>
  );
}
