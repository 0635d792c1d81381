import type { ReactNode } from "react";

/** One titled part of the page; its id is the table of contents' anchor. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 pt-section">
      <h2 id={`${id}-title`} className="m-0 mb-4 text-title font-bold">
        <span className="heading-gradient">{title}</span>
      </h2>
      {children}
    </section>
  );
}

export const prose = "m-0 max-w-3xl leading-relaxed text-fg-soft";

/** The card look around a table, without the card's padding: the table runs to its edges. */
export const tablePanel = "rounded-card border border-line/70 bg-panel/70 shadow-glow";
