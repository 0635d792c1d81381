import { useState } from "react";
import toast from "react-hot-toast";
import { referralLink } from "../../../shared/pages";
import { CopyButton } from "../../components/CopyButton";
import { PagedQueryState } from "../../components/QueryState";
import { useMe } from "../../lib/me";
import { usePartners } from "./api/getPartners";
import { PartnersTable } from "./PartnersTable";

function Figure({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="card flex flex-col gap-1">
      <span className="muted text-sm">{label}</span>
      <span className="text-3xl font-bold tabular-nums text-figure-violet">{value ?? "…"}</span>
    </div>
  );
}

/** The user's direct partners and the size of the whole team below them. */
export default function PartnersPage() {
  const [page, setPage] = useState(1);
  const partners = usePartners(page);
  const { user } = useMe();
  const link = user ? referralLink(window.location.origin, user.myReferralId) : "";

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Partners</h1>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Figure label="Direct partners" value={partners.data?.directPartners} />
        <Figure label="Total team" value={partners.data?.totalPartners} />
      </div>
      {link && (
        <div className="card flex flex-col gap-3 sm:flex-row sm:items-center">
          <span className="muted text-sm">Your invitation link</span>
          <code className="flex-1 break-all font-mono text-sm text-figure-blue">{link}</code>
          <CopyButton text={link} label="Copy link" onCopied={() => toast.success("Link copied to clipboard!")} />
        </div>
      )}
      <PagedQueryState
        query={partners}
        page={page}
        onPage={setPage}
        error="Could not load your partners."
        empty="No partners yet. Share your invitation link to build your team."
        isEmpty={(data) => data.partners.length === 0}
        loadingLabel="Loading partners..."
      >
        {(data) => <PartnersTable rows={data.partners} />}
      </PagedQueryState>
    </div>
  );
}
