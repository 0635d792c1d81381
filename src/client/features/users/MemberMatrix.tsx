import { useSearchParams } from "react-router";
import { LEVELS_PER_PROGRAM, PROGRAMS, type ProgramId } from "../../../shared/constants";
import { ErrorState } from "../../components/ErrorState";
import { Money } from "../../components/Money";
import { Spinner } from "../../components/Spinner";
import { StatusBadge } from "../../components/StatusBadge";
import { CycleNav, latestCycle, standing } from "../../components/CycleNav";
import { SlotCard } from "../../components/SlotCard";
import { type MemberRecord, useMemberMatrix } from "./api/memberRecord";

const programOf = (text: string | null): ProgramId => PROGRAMS.find((p) => p === text) ?? PROGRAMS[0];
const levelOf = (text: string | null): number => {
  const level = Number(text);
  return Number.isInteger(level) && level >= 1 && level <= LEVELS_PER_PROGRAM ? level : 1;
};
/** `?cycle=`: a cycle over the level's whole life; absent (or not a cycle), the current one. */
const cycleOf = (text: string | null): number | undefined => {
  const cycle = Number(text);
  return text !== null && Number.isInteger(cycle) && cycle >= 1 ? cycle : undefined;
};

/**
 * The member's matrix at any level and cycle, as their own Packages page shows it (the slots, who
 * filled them, where each payment went, what the level earned and missed), read from
 * GET /api/admin/users/:id/matrix. Program, level and cycle are kept in the URL.
 */
export function MemberMatrix({ record }: { record: MemberRecord }) {
  const [params, setParams] = useSearchParams();
  const program = programOf(params.get("program"));
  const level = levelOf(params.get("level"));
  const cycle = cycleOf(params.get("cycle"));
  const matrix = useMemberMatrix(record.id, program, level, cycle);

  function choose(next: { program?: ProgramId; level?: number; cycle?: number }) {
    const query = new URLSearchParams({ tab: "matrix", program: next.program ?? program, level: String(next.level ?? level) });
    if (next.cycle !== undefined) query.set("cycle", String(next.cycle));
    setParams(query, { replace: true });
  }

  return (
    <section aria-labelledby="member-matrix-title" className="flex flex-col gap-4">
      <h2 id="member-matrix-title" className="m-0 text-lg font-semibold text-fg">
        Matrix of {record.name}
      </h2>
      <div className="flex flex-wrap gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="member-matrix-program" className="field-label">
            Program
          </label>
          <select id="member-matrix-program" className="input w-40" value={program} onChange={(e) => choose({ program: programOf(e.target.value) })}>
            {PROGRAMS.map((p) => (
              <option key={p} value={p}>
                {p.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="member-matrix-level" className="field-label">
            Level
          </label>
          <select id="member-matrix-level" className="input w-40" value={level} onChange={(e) => choose({ level: levelOf(e.target.value) })}>
            {record.programs[program].map((l) => (
              <option key={l.level} value={l.level}>
                {`Level ${l.level}${l.status === "locked" ? "" : ` (${l.status})`}`}
              </option>
            ))}
          </select>
        </div>
      </div>
      {matrix.isPending ? (
        <Spinner label={`Loading ${program.toUpperCase()} Level ${level}...`} />
      ) : matrix.isError ? (
        <div className="flex flex-col items-center gap-3">
          <ErrorState message={`Could not load ${program.toUpperCase()} Level ${level} of this member.`} onRetry={() => void matrix.refetch()} />
          {cycle !== undefined && (
            <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={() => choose({})}>
              Show the current cycle
            </button>
          )}
        </div>
      ) : (
        <div className="card flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <div className="flex flex-col gap-1">
              <p className="m-0 flex flex-wrap items-center gap-2 font-semibold text-fg">
                {program.toUpperCase()} Level {matrix.data.level} <StatusBadge status={matrix.data.status} />
              </p>
              <p className="m-0 text-sm text-fg-soft">{matrix.data.status === "locked" ? `${record.name} has not bought this level.` : standing(matrix.data)}</p>
            </div>
            <p className="muted m-0 text-sm">
              Earned: <Money value={matrix.data.earned} className="text-figure-green" /> · Missed: <Money value={matrix.data.missed} className="text-pending" />
            </p>
          </div>
          {latestCycle(matrix.data) > 1 && (
            <CycleNav
              level={matrix.data.level}
              shown={matrix.isPlaceholderData ? (cycle ?? latestCycle(matrix.data)) : matrix.data.cycle}
              latest={latestCycle(matrix.data)}
              latestState={matrix.data.status === "frozen" ? "completed, froze the level" : "current"}
              loading={matrix.isPlaceholderData}
              onChange={(next) => choose({ cycle: next >= latestCycle(matrix.data) ? undefined : next })}
            />
          )}
          <ol
            aria-label={`Slots of cycle ${matrix.data.cycle}`}
            aria-busy={matrix.isPlaceholderData}
            className={`m-0 grid list-none grid-cols-2 gap-2 p-0 sm:grid-cols-3 sm:gap-3 ${matrix.isPlaceholderData ? "opacity-60" : ""}`}
          >
            {matrix.data.slots.map((slot) => (
              <SlotCard key={slot.slot} program={program} slot={slot} owner={record.name} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
