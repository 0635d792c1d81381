import type { ReactNode } from "react";
import { howItWorks } from "../../../ui/content";
import { SiteIcon, type SiteIconName } from "../../../ui/siteIcons";
import { PROGRAMS } from "../../../shared/constants";
import { paidPerCycle, programName, type SlotTables } from "../slots";
import { prose, Section } from "./Section";

const t = howItWorks;

function Card({ icon, title, children }: { icon: SiteIconName; title: string; children: ReactNode }) {
  return (
    <article className="card flex flex-col gap-3">
      <h3 className="m-0 flex items-center gap-2.5 text-lg font-semibold">
        <span aria-hidden="true" className="inline-flex size-9 items-center justify-center rounded-control bg-gradient-to-br from-brand-blue to-brand-violet text-xl text-white">
          <SiteIcon name={icon} />
        </span>
        {title}
      </h3>
      {children}
    </article>
  );
}

const text = "m-0 text-sm leading-relaxed text-fg-soft";

/** Cycles, the freeze after FREEZE_AT_CYCLES of them, and what an unfreeze brings back. */
export function CycleSections({ slots }: { slots: SlotTables }) {
  return (
    <>
      <Section id="cycles" title={t.cycles.title}>
        <p className={prose}>{t.cycles.complete(slots["3p"].length, slots["6p"].length)}</p>
        <p className={`${prose} mt-4`}>{t.cycles.freeze}</p>
        <ul className="m-0 mt-6 grid list-none gap-4 p-0 md:grid-cols-2">
          {PROGRAMS.map((program) => (
            <li key={program} className="card text-sm leading-relaxed text-fg-soft">
              {t.cycles.ceiling(programName(program), paidPerCycle(slots[program]))}
            </li>
          ))}
        </ul>
      </Section>
      <Section id="unfreeze" title={t.unfreeze.title}>
        <div className="grid gap-4 md:grid-cols-2">
          <Card icon="snowflake" title={t.unfreeze.backTitle}>
            <p className={text}>{t.unfreeze.text}</p>
          </Card>
          <Card icon="up" title={t.unfreeze.payeeTitle}>
            <p className={text}>{t.unfreeze.payee}</p>
          </Card>
        </div>
      </Section>
    </>
  );
}

/** Who a payment reaches, and when it passes a member by. */
export function ReceiverSection() {
  const r = t.receivers;
  return (
    <Section id="receivers" title={r.title}>
      <p className={prose}>{r.text}</p>
      <p className={`${prose} mt-4`}>{r.platform}</p>
      <div className="card mt-6 max-w-3xl">
        <h3 id="missed" className="m-0 mb-3 flex items-center gap-2 text-lg font-semibold">
          <SiteIcon name="alert" className="text-pending" />
          {r.missedTitle}
        </h3>
        <p className={text}>{r.missed}</p>
        <ul className="m-0 mt-2 grid list-disc gap-1 pl-5 text-sm text-fg-soft">
          {r.missedReasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
        <p className={`${text} mt-3`}>{r.missedAfter}</p>
      </div>
    </Section>
  );
}

/** Deposits (approved by an admin), withdrawals, the fee and the minimums, from the constants. */
export function MoneySection() {
  const m = t.money;
  return (
    <Section id="money" title={m.title}>
      <div className="grid gap-4 md:grid-cols-2">
        <Card icon="deposit" title={m.depositsTitle}>
          <p className={text}>{m.deposits}</p>
        </Card>
        <Card icon="withdraw" title={m.withdrawalsTitle}>
          <p className={text}>{m.withdrawals}</p>
          <p className="m-0 rounded-control border border-line-subtle bg-ink/60 px-3 py-2 text-sm tabular-nums text-fg">{m.example}</p>
        </Card>
      </div>
    </Section>
  );
}
