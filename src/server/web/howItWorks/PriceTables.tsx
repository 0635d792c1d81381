import { howItWorks } from "../../../ui/content";
import { PROGRAMS, SLOTS_PER_LEVEL } from "../../../shared/constants";
import { formatDollars, type Cents } from "../../../shared/money";
import type { LevelPrices } from "../pageData";
import { programName } from "../slots";
import { prose, Section, tablePanel } from "./Section";

const t = howItWorks.programs;
/** Money in tables: 2 decimals, "$" after the figure (design.md). */
const money = (cents: Cents) => `${formatDollars(cents)} $`;

/** The two programs and the current price and unfreeze cost of each of their levels. */
export function PriceTables({ prices }: { prices: LevelPrices }) {
  const available = PROGRAMS.every((p) => prices[p].length > 0);
  return (
    <Section id="programs" title={t.title}>
      <p className={prose}>{t.text(SLOTS_PER_LEVEL["3p"], SLOTS_PER_LEVEL["6p"])}</p>
      {available ? (
        <>
          <div className="mt-8 grid gap-6 md:grid-cols-2">
            {PROGRAMS.map((program) => (
              <div key={program} className={`${tablePanel} overflow-x-auto`}>
                <table className="table" data-prices={program}>
                  <caption className="px-3 pt-4 pb-2 text-left text-base font-semibold text-fg">{t.pricesCaption(programName(program))}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className="th">{t.level}</th>
                      <th scope="col" className="th text-right">{t.price}</th>
                      <th scope="col" className="th text-right">{t.unfreeze}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {prices[program].map((l) => (
                      <tr key={l.level}>
                        <th scope="row" className="td text-left">
                          <span className="font-medium text-fg">{t.levelRow(l.level)}</span>
                        </th>
                        <td className="td-money">{money(l.cost)}</td>
                        <td className="td-money">{money(l.unfreezeCost)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
          </div>
          <p className="m-0 mt-4 max-w-3xl text-sm muted">{t.pricesNote}</p>
        </>
      ) : (
        <p role="status" className="card m-0 mt-8 max-w-3xl text-fg-soft">{t.pricesUnavailable}</p>
      )}
    </Section>
  );
}
