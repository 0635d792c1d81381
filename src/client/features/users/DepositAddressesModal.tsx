import { networkName } from "../../../shared/chain";
import { DateTime } from "../../components/DateTime";
import { LongId } from "../../components/LongText";
import { Modal } from "../../components/Modal";
import { QueryState } from "../../components/QueryState";
import type { UserRow } from "./api/getUsers";
import { useDepositAddresses } from "./api/getDepositAddresses";

/** A member's own deposit addresses: where each network's transfers to them arrive, and when each was last swept. */
export function DepositAddressesModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const addresses = useDepositAddresses(user?.id ?? null);
  return (
    <Modal open={user !== null} title={`Deposit addresses of ${user?.name ?? ""}`} onClose={onClose}>
      <QueryState
        query={addresses}
        error="Failed to load the member's deposit addresses."
        empty="This member has no deposit address of their own yet: one is given when they open the deposit page on such a network."
        isEmpty={(rows) => rows.length === 0}
        loadingLabel="Loading deposit addresses..."
      >
        {(rows) => (
          <ul className="m-0 flex list-none flex-col gap-3 p-0">
            {rows.map((row) => (
              <li key={`${row.network}:${row.index}`} className="flex flex-col gap-1 rounded-control border border-line px-3 py-2 text-sm">
                <span className="font-semibold text-fg">{networkName(row.network)}</span>
                <LongId value={row.address} label={`${networkName(row.network)} deposit address`} />
                <span className="muted text-xs">
                  Index {row.index} · given <DateTime value={row.createdAt} /> · {row.sweptAt ? <>swept through <DateTime value={row.sweptAt} /></> : "never swept"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Modal>
  );
}
