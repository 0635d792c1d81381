import { useEffect, useRef, useState } from "react";
import type { EarningsDay } from "./api/getEarnings";

/** Whether this browser can draw on a canvas (test DOMs and some locked-down browsers cannot). */
function canDraw(): boolean {
  try {
    return Boolean(document.createElement("canvas").getContext("2d"));
  } catch {
    return false;
  }
}

/**
 * The chart of earned and missed per day. Hidden from assistive tech: the page states the same
 * figures as text and in a table. Where a canvas cannot be drawn, or uPlot fails to load,
 * nothing is shown and the table and totals still tell it all.
 */
export function EarningsChart({ days }: { days: EarningsDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [drawing] = useState(canDraw);

  useEffect(() => {
    const target = box.current;
    if (!drawing || !target) return;
    let stopped = false;
    let cleanup = () => {};
    void import("./drawChart")
      .then(({ drawChart, CHART_HEIGHT }) => {
        if (stopped) return;
        const plot = drawChart(target, days, target.clientWidth);
        const observer = new ResizeObserver(() => plot.setSize({ width: target.clientWidth, height: CHART_HEIGHT }));
        observer.observe(target);
        cleanup = () => {
          observer.disconnect();
          plot.destroy();
        };
      })
      .catch(() => {});
    return () => {
      stopped = true;
      cleanup();
    };
  }, [drawing, days]);

  if (!drawing) return null;
  return <div ref={box} aria-hidden="true" className="min-h-[300px] w-full text-fg-soft" data-testid="earnings-chart" />;
}
