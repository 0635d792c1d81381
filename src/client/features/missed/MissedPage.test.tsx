import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../../shared/contract/member";
import { renderApp } from "../../../testing/renderApp";
import { makeMe, wireMe } from "../../../testing/renderClient";

useDom();

const me = makeMe();
type Page = z.output<typeof MEMBER.missed.response>;
type Item = Page["items"][number];
const at = (day: number) => new Date(Date.UTC(2026, 2, day, 10));
const item = (fields: Partial<Item>): Item => ({ createdAt: at(1), program: "3p", level: 1, buyer: { name: "Grace Hopper" }, amount: 2_000n, reason: "not_active", ...fields });
const wirePage = (items: Item[], page = 1, totalPages = 1, total = items.length) => z.encode(MEMBER.missed.response, { items, page, totalPages, total });

function serve(answer: (url: URL) => unknown) {
  return serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/user/missed") return json(answer(url));
    return json({});
  });
}
const missedCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/missed").map((r) => new URL(r.url).search);

test("the list says who bought, at which program and level, how much, why and when, newest first", async () => {
  serve(() =>
    wirePage([
      item({ createdAt: at(3), program: "6p", level: 2, buyer: { name: "Alan Turing" }, amount: 1_000n, reason: "frozen" }),
      item({ createdAt: at(2) }),
    ]),
  );
  renderApp("/userDashboard/missed", { token: "t1" });
  const table = await screen.findByRole("table", { name: "Missed earnings, newest first" });
  const [frozen, unbought] = within(table).getAllByRole("row").slice(1) as [HTMLElement, HTMLElement];
  expect(within(frozen).getByText("Alan Turing")).toBeTruthy();
  expect(within(frozen).getByText("6P · Level 2")).toBeTruthy();
  expect(within(frozen).getByText("10.00 $")).toBeTruthy();
  expect(within(frozen).getByText("Your level was frozen")).toBeTruthy();
  expect(within(frozen).getByRole("time").getAttribute("datetime")).toBe(at(3).toISOString());
  expect(within(unbought).getByText("Grace Hopper")).toBeTruthy();
  expect(within(unbought).getByText("You had not bought this level")).toBeTruthy();
  expect(screen.getByText("2 payments missed")).toBeTruthy();
});

test("pages: Next reads page 2 and puts it in the URL", async () => {
  const seen = serve((url) => (url.searchParams.get("page") === "2" ? wirePage([item({ buyer: { name: "Page Two" } })], 2, 2, 21) : wirePage([item({})], 1, 2, 21)));
  const app = renderApp("/userDashboard/missed", { token: "t1" });
  expect(await screen.findByText("21 payments missed")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Page Two")).toBeTruthy();
  expect(screen.getByText("Page 2 of 2")).toBeTruthy();
  expect(app.location()).toBe("/userDashboard/missed?page=2");
  expect(missedCalls(seen)).toEqual(["?page=1", "?page=2"]);
});

test("a level's link lists that level only, and offers every level back", async () => {
  const seen = serve((url) => (url.searchParams.get("level") ? wirePage([]) : wirePage([item({})])));
  const app = renderApp("/userDashboard/missed?program=3p&level=2", { token: "t1" });
  expect(await screen.findByRole("heading", { name: "Missed earnings: 3P · Level 2" })).toBeTruthy();
  expect(await screen.findByText("Nothing has passed you by at 3P · Level 2.")).toBeTruthy();
  expect(missedCalls(seen)).toEqual(["?page=1&program=3p&level=2"]);
  fireEvent.click(screen.getByRole("link", { name: "Show every level" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/missed"));
  expect(await screen.findByText("1 payment missed")).toBeTruthy();
});

test("a failed load offers to try again; nothing missed says so", async () => {
  let fail = true;
  serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    return fail ? json({ msg: "boom", code: "server_error" }, 500) : json(wirePage([]));
  });
  renderApp("/userDashboard/missed", { token: "t1" });
  expect(await screen.findByText("Could not load your missed earnings.")).toBeTruthy();
  fail = false;
  fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByText("Nothing has passed you by yet.")).toBeTruthy();
});
