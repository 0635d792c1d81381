import { DateTime } from "../../components/DateTime";
import type { Partner } from "./api/getPartners";

export function PartnersTable({ rows }: { rows: Partner[] }) {
  return (
    <div className="card overflow-x-auto p-0">
      <table className="table min-w-[28rem]">
        <caption className="sr-only">Your direct partners, newest first</caption>
        <thead>
          <tr>
            <th className="th">Name</th>
            <th className="th">Joined</th>
            <th className="th text-right">Their team</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((partner) => (
            <tr key={partner._id}>
              <td className="td">{partner.name}</td>
              <td className="td">
                <DateTime value={partner.joinedAt} />
              </td>
              <td className="td text-right tabular-nums">{partner.partners}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
