import type { ReactNode } from "react";
import type { RequestStatus } from "../../../shared/constants";
import type { Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { EmailText } from "../../components/LongText";
import { StatusBadge } from "../../components/StatusBadge";

/** The columns deposit and withdrawal tables share: when, who, and the status or the admin's buttons. */
interface RequestRow {
  createdAt: Date;
  userName: string;
  userEmail: string;
  status: RequestStatus;
  /** The admin's words to the member about the decision; null when none. */
  reason: string | null;
}

export const dateColumn = <R extends RequestRow>(): Column<R> => ({ header: "Date", cell: (row) => <DateTime value={row.createdAt} /> });

export const userColumn = <R extends RequestRow>(): Column<R> => ({
  header: "User",
  cell: (row) => (
    <>
      <span className="block">{row.userName}</span>
      <EmailText email={row.userEmail} className="muted block text-xs" />
    </>
  ),
});

/** The dashboard adds Accept/Decline; the histories show the status instead, with the reason the member was given. */
export const statusOrActions = <R extends RequestRow>(actions?: (row: R) => ReactNode): Column<R> =>
  actions
    ? { header: "Actions", end: true, cell: actions }
    : {
        header: "Status",
        cell: (row) => (
          <>
            <StatusBadge status={row.status} />
            {row.reason && <span className="muted block text-xs">Reason: {row.reason}</span>}
          </>
        ),
      };
