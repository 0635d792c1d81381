import uPlot from "uplot";
import css from "uplot/dist/uPlot.min.css" with { type: "text" };
import { toDollars } from "../../../shared/money";
import { colors } from "../../../shared/tokens";
import { formatMoney } from "../../components/Money";
import type { EarningsDay } from "./api/getEarnings";

/*
 * uPlot and its stylesheet, loaded by EarningsChart with import() only when the page can draw:
 * a chunk of its own that no other page fetches.
 */

const STYLE_ID = "uplot-css";
export const CHART_HEIGHT = 260;

function addStyle() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = css;
  document.head.append(style);
}

/** A tick of the y axis (a number uPlot chose) read back as cents, for its label only. */
const tickCents = (dollars: number) => BigInt(Math.round(dollars * 100));

const axis = { stroke: colors.muted, grid: { stroke: colors.line.subtle, width: 1 }, ticks: { stroke: colors.line.subtle, width: 1 } };

/**
 * The chart's data: x in seconds (UTC midnight of each day), then earned and missed in dollars.
 * uPlot draws numbers, not bigint: the cents become dollars here, at the drawing edge, and
 * nowhere else. Every text on the chart (legend, axis labels) is written from cents by formatMoney.
 */
export function chartSeries(days: EarningsDay[]): [number[], number[], number[]] {
  return [
    days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    days.map((day) => toDollars(day.earned)),
    days.map((day) => toDollars(day.missed)),
  ];
}

/** Draws earned and missed per day into `target`; the caller destroys the plot. */
export function drawChart(target: HTMLElement, days: EarningsDay[], width: number): uPlot {
  addStyle();
  const legend = (pick: (day: EarningsDay) => bigint) => (_plot: uPlot, _value: number | null, _series: number, index: number | null) => {
    const day = index === null ? undefined : days[index];
    return day ? formatMoney(pick(day)) : "—";
  };

  const options: uPlot.Options = {
    width,
    height: CHART_HEIGHT,
    // The server counts days in UTC; the axis shows the same days wherever the reader is.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
    scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [axis, { ...axis, size: 80, values: (_plot, splits) => splits.map((tick) => formatMoney(tickCents(tick))) }],
    series: [
      { label: "Day", value: (_plot, _value, _series, index) => (index === null ? "—" : (days[index]?.date ?? "—")) },
      { label: "Earned", stroke: colors.figure.green, fill: `${colors.figure.green}22`, width: 2, value: legend((day) => day.earned) },
      // Dashed as well as amber: colour is never the only signal.
      { label: "Missed", stroke: colors.pending, width: 2, dash: [6, 4], value: legend((day) => day.missed) },
    ],
  };
  return new uPlot(options, chartSeries(days), target);
}
