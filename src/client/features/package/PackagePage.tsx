import { useState } from "react";
import { SLOTS_PER_LEVEL, type ProgramId } from "../../../shared/constants";
import { QueryState } from "../../components/QueryState";
import { useMe } from "../../lib/me";
import { useLevels } from "../programs/api/getLevels";
import { LevelCard } from "./LevelCard";
import { MatrixPanel } from "./MatrixPanel";
import { ProgramTabs, panelId, tabId } from "./ProgramTabs";
import { joinLevels, levelLook } from "./levels";
import { useLevelActions } from "./useLevelActions";

/** Programs page: the levels of 3P or 6P, what each costs, and the slots of the selected one. */
export default function PackagePage() {
  const [program, setProgram] = useState<ProgramId>("3p");
  const [selected, setSelected] = useState(1);
  const { user } = useMe();
  const prices = useLevels(program);
  const levels = joinLevels(prices.data ?? [], user, program);
  const actions = useLevelActions(program, levels, setSelected);
  const selectedView = levels.find((l) => l.level === selected);

  function switchProgram(next: ProgramId) {
    setProgram(next);
    setSelected(1); // spec: switching program resets the selected level to 1
  }

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="heading-gradient text-2xl font-bold">Packages</h1>
        <ProgramTabs value={program} onChange={switchProgram} />
      </header>
      <div role="tabpanel" id={panelId(program)} aria-labelledby={tabId(program)} className="flex flex-col gap-6">
        <QueryState
          query={prices}
          error="Failed to load levels."
          empty="No levels found for this program."
          isEmpty={(data) => data.length === 0}
          loadingLabel="Loading levels..."
        >
          {() => (
            <>
              {selectedView && (
                <MatrixPanel
                  key={`${program}-${selectedView.level}`}
                  program={program}
                  view={selectedView}
                  look={levelLook(selectedView, levels)}
                  busy={actions.busy}
                  onUnfreeze={() => void actions.unfreeze(selectedView)}
                />
              )}
              <ul
                aria-busy={actions.checking}
                className={`grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4 ${actions.checking ? "cursor-progress" : ""}`}
              >
                {levels.map((view) => (
                  <li key={view.level}>
                    <LevelCard
                      view={view}
                      look={levelLook(view, levels)}
                      slotCount={SLOTS_PER_LEVEL[program]}
                      selected={view.level === selected}
                      busy={actions.busy}
                      justDone={actions.done === view.level}
                      onSelect={() => setSelected(view.level)}
                      onBuy={() => void actions.buy(view)}
                      onUnfreeze={() => void actions.unfreeze(view)}
                    />
                  </li>
                ))}
              </ul>
            </>
          )}
        </QueryState>
      </div>
    </div>
  );
}
