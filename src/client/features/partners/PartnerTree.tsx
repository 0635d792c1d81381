import { useEffect, useId, useRef, useState } from "react";
import { DateTime } from "../../components/DateTime";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { Spinner } from "../../components/Spinner";
import { Icon } from "../../../ui/icons";
import { usePartnerBranch, type Partner } from "./api/getPartners";
import { uniqueById } from "../../lib/uniqueById";

const NONE_YET = "No partners yet. Share your invitation link to build your team.";

/** "Lvl 4", or a dash (read out as "none") when the program has no active level. */
function LevelText({ level }: { level: number }) {
  if (level > 0) return <>Lvl {level}</>;
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">none</span>
    </>
  );
}

/** "3P: Lvl 4 · 6P: —": the highest level each program has active. */
export function PartnerLevels({ levels }: { levels: Partner["levels"] }) {
  return (
    <span className="whitespace-nowrap text-sm text-fg-soft" data-testid="partner-levels">
      3P: <LevelText level={levels["3p"]} /> · 6P: <LevelText level={levels["6p"]} />
    </span>
  );
}

function PartnerNode({ partner }: { partner: Partner }) {
  const [open, setOpen] = useState(false);
  const branchId = useId();
  // Partners who left count no more, but stay on their list: the branch opens on what is listed.
  const hasBranch = partner.hasPartners;
  return (
    <li className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-control border border-line-subtle bg-panel/50 px-3 py-2">
        {hasBranch ? (
          <button
            type="button"
            data-node
            aria-expanded={open}
            aria-controls={open ? branchId : undefined}
            onClick={() => setOpen((was) => !was)}
            className="-mx-1 inline-flex min-h-8 cursor-pointer items-center gap-2 rounded-control border-0 bg-transparent px-1 text-left font-semibold text-fg focus-ring hover:text-figure-blue"
          >
            <Icon name="arrow" className={`transition-transform duration-150 ${open ? "rotate-90" : ""}`} />
            {partner.name}
            <span className="sr-only">{`, ${partner.directPartners} direct partner${partner.directPartners === 1 ? "" : "s"}`}</span>
          </button>
        ) : (
          <span data-node tabIndex={-1} className="inline-flex min-h-8 items-center gap-2 pl-6 font-semibold text-fg focus-ring">
            {partner.name}
          </span>
        )}
        {partner.deleted ? (
          // Their levels receive nothing any more; their partners are still the caller's team.
          <span className="whitespace-nowrap text-sm text-fg-soft">Left the platform</span>
        ) : (
          <PartnerLevels levels={partner.levels} />
        )}
        <span className="text-sm tabular-nums text-fg-soft">Team: {partner.partners}</span>
        <span className="muted ml-auto text-xs">
          Joined <DateTime value={partner.joinedAt} />
        </span>
      </div>
      {open && (
        <div className="ml-3 border-l border-line-subtle pl-4">
          <Branch of={partner.id} id={branchId} label={`Partners of ${partner.name}`} />
        </div>
      )}
    </li>
  );
}

interface BranchProps {
  /** Whose direct partners; the caller's own when absent. */
  of?: string;
  id?: string;
  label: string;
}

/**
 * One level of the downline: a list of partners, each with a disclosure button when they have
 * partners of their own, whose branch is loaded when first opened. "Load more" reads the
 * branch's next page and moves focus to the first partner it brought.
 */
export function Branch({ of, id, label }: BranchProps) {
  const branch = usePartnerBranch(of);
  const list = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  // A partner who joined between two pages would show twice: each is shown once.
  const partners = uniqueById(branch.data?.pages.flatMap((page) => page.partners) ?? []);

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || partners.length <= from) return;
    focusFrom.current = null;
    list.current?.querySelectorAll<HTMLElement>(":scope > li > div > [data-node]")[from]?.focus();
  }, [partners.length]);

  if (branch.isPending) return <Spinner label="Loading partners..." />;
  if (branch.isError && !branch.isFetchNextPageError) {
    return <ErrorState message="Could not load your partners." onRetry={() => void branch.refetch()} />;
  }
  if (partners.length === 0) return <EmptyState message={of === undefined ? NONE_YET : "No partners here."} />;

  return (
    <div className="flex flex-col gap-2">
      <ul ref={list} id={id} aria-label={label} className="m-0 flex list-none flex-col gap-2 p-0">
        {partners.map((partner) => (
          <PartnerNode key={partner.id} partner={partner} />
        ))}
      </ul>
      {branch.isFetchNextPageError && <p role="alert" className="m-0 text-sm text-declined">Could not load more partners.</p>}
      {branch.hasNextPage && (
        <button
          type="button"
          className="btn btn-secondary btn-sm focus-ring self-start"
          disabled={branch.isFetchingNextPage}
          aria-label={`Load more: ${label}`}
          onClick={() => {
            focusFrom.current = partners.length;
            void branch.fetchNextPage();
          }}
        >
          {branch.isFetchingNextPage ? "Loading..." : "Load more"}
        </button>
      )}
    </div>
  );
}
