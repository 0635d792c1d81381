import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../../shared/contract/member";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import EarningsPage from "./EarningsPage";

useDom();

const me = makeMe();
/** GET /api/user/earnings as the server sends it, built through the contract from cents. */
const answer = (days: number) =>
  z.encode(MEMBER.earnings.response, {
    days: Array.from({ length: days }, (_, i) => ({
      date: `2026-03-${String(i + 1).padStart(2, "0")}`,
      earned: i === 0 ? 1_050n : i === 1 ? 5n : 0n,
      missed: i === 1 ? 250n : 0n,
    })),
    totalEarned: 1_055n,
    totalMissed: 250n,
    lifetimeEarned: 123_456n,
    lifetimeMissed: 7_890n,
  });

function serve() {
  return serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    return json(answer(Number(url.searchParams.get("days"))));
  });
}
const earningsCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/earnings").map((r) => new URL(r.url).search);

test("the page asks for 30 days and states the totals as text", async () => {
  const seen = serve();
  renderClient(<EarningsPage />, { me });
  expect(await screen.findByText("Earned, last 30 days")).toBeTruthy();
  const total = (label: string) => screen.getByText(label).parentElement!.textContent;
  expect(total("Earned, last 30 days")).toContain("10.55 $");
  expect(total("Missed, last 30 days")).toContain("2.50 $");
  expect(total("Earned, all time")).toContain("1234.56 $");
  expect(total("Missed, all time")).toContain("78.90 $");
  expect(earningsCalls(seen)).toEqual(["?days=30"]);
  expect(screen.getByRole("button", { name: "30 days" }).getAttribute("aria-pressed")).toBe("true");
});

test("the figures of every day are in a table for assistive tech, formatted from cents", async () => {
  serve();
  renderClient(<EarningsPage />, { me });
  const table = await screen.findByRole("table", { name: "Earned and missed per day, last 30 days (UTC)" });
  expect(table.className).toContain("sr-only");
  const rows = within(table).getAllByRole("row");
  expect(rows).toHaveLength(31);
  const cells = (row: HTMLElement) => within(row).getAllByRole("cell").map((cell) => cell.textContent);
  expect(cells(rows[1]!)).toEqual(["10.50\u00a0$", "0.00\u00a0$"]);
  expect(cells(rows[2]!)).toEqual(["0.05\u00a0$", "2.50\u00a0$"]);
  expect(within(rows[1]!).getByRole("rowheader").textContent).toMatch(/2026/);
});

test("without a canvas (this test DOM) no chart is drawn and uPlot is not loaded; the table stands in", async () => {
  serve();
  renderClient(<EarningsPage />, { me });
  await screen.findByRole("table");
  expect(screen.queryByTestId("earnings-chart")).toBeNull();
  expect(document.getElementById("uplot-css")).toBeNull();
});

test("the 7, 30, 90 selector asks for that many days", async () => {
  const seen = serve();
  renderClient(<EarningsPage />, { me });
  await screen.findByText("Earned, last 30 days");
  fireEvent.click(screen.getByRole("button", { name: "7 days" }));
  expect(await screen.findByText("Earned, last 7 days")).toBeTruthy();
  expect(screen.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");
  expect(within(screen.getByRole("table")).getAllByRole("row")).toHaveLength(8);
  fireEvent.click(screen.getByRole("button", { name: "90 days" }));
  expect(await screen.findByText("Earned, last 90 days")).toBeTruthy();
  await waitFor(() => expect(earningsCalls(seen)).toEqual(["?days=30", "?days=7", "?days=90"]));
});

test("a quiet span says nothing was earned or missed", async () => {
  serveFetch((r) =>
    new URL(r.url).pathname === "/api/auth"
      ? json(wireMe(me))
      : json(
          z.encode(MEMBER.earnings.response, {
            days: [{ date: "2026-03-01", earned: 0n, missed: 0n }],
            totalEarned: 0n,
            totalMissed: 0n,
            lifetimeEarned: 0n,
            lifetimeMissed: 0n,
          }),
        ),
  );
  renderClient(<EarningsPage />, { me });
  expect(await screen.findByText("Nothing earned or missed in the last 30 days.")).toBeTruthy();
});

test("a failed load says so and offers to try again", async () => {
  serveFetch((r) => (new URL(r.url).pathname === "/api/auth" ? json(wireMe(me)) : json({ msg: "boom" }, 500)));
  renderClient(<EarningsPage />, { me });
  expect(await screen.findByText("Could not load your earnings.")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
});

test("the chart's series turn cents into dollars only there, one point per UTC day", async () => {
  const { chartSeries } = await import("./drawChart");
  const [x, earned, missed] = chartSeries([
    { date: "2026-03-01", earned: 1_050n, missed: 0n },
    { date: "2026-03-02", earned: 5n, missed: 123_456_789n },
  ]);
  expect(x).toEqual([Date.UTC(2026, 2, 1) / 1000, Date.UTC(2026, 2, 2) / 1000]);
  expect(earned).toEqual([10.5, 0.05]);
  expect(missed).toEqual([0, 1_234_567.89]);
});

test("where a canvas can be drawn the chart has its place, hidden from assistive tech (the table says it)", async () => {
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = (() => ({})) as unknown as typeof getContext;
  try {
    serve();
    renderClient(<EarningsPage />, { me });
    const chart = await screen.findByTestId("earnings-chart");
    expect(chart.getAttribute("aria-hidden")).toBe("true");
    expect(screen.getByRole("table")).toBeTruthy();
  } finally {
    HTMLCanvasElement.prototype.getContext = getContext;
  }
});

test("the missed totals link to the list of each missed payment", async () => {
  serve();
  renderClient(<EarningsPage />, { me });
  const card = (label: string) => screen.getByText(label).parentElement!;
  expect(await screen.findByText("Missed, last 30 days")).toBeTruthy();
  for (const label of ["Missed, last 30 days", "Missed, all time"]) {
    expect(within(card(label)).getByRole("link", { name: "See each missed payment" }).getAttribute("href")).toBe("/userDashboard/missed");
  }
  expect(within(card("Earned, all time")).queryByRole("link")).toBeNull();
});
