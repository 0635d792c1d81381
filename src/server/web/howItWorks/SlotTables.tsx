import { howItWorks } from "../../../ui/content";
import { SiteIcon } from "../../../ui/siteIcons";
import { PROGRAMS } from "../../../shared/constants";
import { paidPerCycle, programName, type SlotRow, type SlotTables as Tables } from "../slots";
import { prose, Section, tablePanel } from "./Section";

const t = howItWorks.slots;

/** Where each slot sends the price, program by program, as slotRule decides it. */
export function SlotTables({ slots }: { slots: Tables }) {
  return (
    <Section id="slots" title={t.title}>
      <p className={prose}>{t.text}</p>
      <div className="mt-8 grid items-start gap-6 md:grid-cols-2">
        {PROGRAMS.map((program) => (
          <div key={program} className={`${tablePanel} flex flex-col gap-4 pb-5`}>
            <div className="overflow-x-auto">
              <table className="table" data-slots={program}>
                <caption className="px-3 pt-4 pb-2 text-left text-base font-semibold text-fg">{t.caption(programName(program))}</caption>
                <thead>
                  <tr>
                    <th scope="col" className="th">{t.slot}</th>
                    <th scope="col" className="th">{t.money}</th>
                    <th scope="col" className="th">{t.matrix}</th>
                  </tr>
                </thead>
                <tbody>
                  {slots[program].map((row) => (
                    <SlotTableRow key={row.slot} row={row} />
                  ))}
                </tbody>
              </table>
            </div>
            <p className="m-0 px-3 text-sm font-medium text-fg">{t.perCycle(programName(program), paidPerCycle(slots[program]), slots[program].length)}</p>
          </div>
        ))}
      </div>
      <p className={`${prose} mt-6`}>{t.passedUp}</p>
    </Section>
  );
}

function SlotTableRow({ row }: { row: SlotRow }) {
  const rule = t.rules[row.rule];
  const paid = row.rule === "paid";
  return (
    <tr data-rule={row.rule}>
      <th scope="row" className="td text-left whitespace-nowrap">
        <span className="font-medium text-fg">{t.slotRow(row.slot)}</span>
      </th>
      <td className="td">
        <span className={`inline-flex items-center gap-1.5 font-medium ${paid ? "text-active" : "text-figure-violet"}`}>
          <SiteIcon name={paid ? "check" : "up"} />
          {rule.money}
        </span>
      </td>
      <td className="td">{rule.matrix}</td>
    </tr>
  );
}
