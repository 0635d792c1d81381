import toast from "react-hot-toast";
import { referralLink } from "../../../shared/pages";
import { CopyButton } from "../../components/CopyButton";
import { useMe } from "../../lib/me";
import { usePartnerBranch } from "./api/getPartners";
import { Branch } from "./PartnerTree";

function Figure({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="card flex flex-col gap-1">
      <span className="muted text-sm">{label}</span>
      <span className="text-3xl font-bold tabular-nums text-figure-violet">{value ?? "…"}</span>
    </div>
  );
}

/** The user's team as a tree: direct partners first, each branch opened on demand. */
export default function PartnersPage() {
  // The same query as the tree's first level: one request for both.
  const first = usePartnerBranch().data?.pages[0];
  const { user } = useMe();
  const link = user ? referralLink(window.location.origin, user.myReferralId) : "";

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Partners</h1>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Figure label="Direct partners" value={first?.directPartners} />
        <Figure label="Total team" value={first?.totalPartners} />
      </div>
      {link && (
        <div className="card flex flex-col gap-3 sm:flex-row sm:items-center">
          <span className="muted text-sm">Your invitation link</span>
          <code className="flex-1 break-all font-mono text-sm text-figure-blue">{link}</code>
          <CopyButton text={link} label="Copy link" onCopied={() => toast.success("Link copied to clipboard!")} />
        </div>
      )}
      <section aria-labelledby="team-title" className="flex flex-col gap-3">
        <h2 id="team-title" className="m-0 text-lg font-semibold text-fg">
          Your team
        </h2>
        <Branch label="Your direct partners" />
      </section>
    </div>
  );
}
