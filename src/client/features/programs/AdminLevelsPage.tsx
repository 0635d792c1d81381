import type { ProgramId } from "../../../shared/constants";
import { QueryState } from "../../components/QueryState";
import { useLevels } from "./api/getLevels";
import { LevelPriceForm } from "./LevelPriceForm";

/** Admin: the price list of one program, one form per level. */
export function AdminLevelsPage({ program }: { program: ProgramId }) {
  const levels = useLevels(program);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">{program.toUpperCase()} Level Prices</h1>
      <QueryState
        query={levels}
        error="Failed to load levels."
        empty="No levels found for this program."
        isEmpty={(rows) => rows.length === 0}
        loadingLabel="Loading levels..."
      >
        {(rows) => (
          <div className="flex flex-col gap-4">
            {rows.map((price) => (
              // Keyed on the saved prices: a row starts over from the server's values once they change.
              <LevelPriceForm key={`${price.level}:${price.cost}:${price.unfreezeCost}`} program={program} price={price} />
            ))}
          </div>
        )}
      </QueryState>
    </div>
  );
}
