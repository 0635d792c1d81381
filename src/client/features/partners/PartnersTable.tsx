import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import type { Partner } from "./api/getPartners";

const columns: Column<Partner>[] = [
  { header: "Name", cell: (partner) => partner.name },
  { header: "Joined", cell: (partner) => <DateTime value={partner.joinedAt} /> },
  { header: "Their team", numeric: true, cell: (partner) => partner.partners },
];

export function PartnersTable({ rows }: { rows: Partner[] }) {
  return <DataTable caption="Your direct partners, newest first" rows={rows} rowKey={(partner) => partner.id} columns={columns} />;
}
