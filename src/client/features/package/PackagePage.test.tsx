import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import type { Me } from "../../lib/me";
import PackagePage from "./PackagePage";

useDom();

const prices = [1, 2, 3, 4].map((level) => ({ level, cost: 5 * 2 ** (level - 1), unfreezeCost: 2.5 * 2 ** (level - 1) }));

/** 3P levels 1..4 with the given statuses; 6P all locked. */
function meWith(statuses: Me["packages"]["3p"]["levels"][number]["status"][]): Me {
  const levels = statuses.map((status, i) => ({ level: i + 1, status, cycles: 0, boxes: status === "locked" ? [] : ["a"] }));
  return makeMe({ packages: { "3p": { levels }, "6p": { levels: levels.map((l) => ({ ...l, status: "locked" as const, boxes: [] })) } } });
}

function serve(me: Me) {
  return serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    const matrix = path.match(/\/api\/user\/matrix\/(\dp)\/(\d+)$/);
    if (matrix) {
      const slots = [1, 2, 3].map((slot) => ({ slot, filled: slot === 1, user: slot === 1 ? { _id: "p1", name: "Grace Hopper" } : null, filledAt: null }));
      return json({ program: matrix[1], level: Number(matrix[2]), status: "active", slotCount: 3, cycles: 1, slots, earned: 7.5 });
    }
    if (path.includes("/purchase/")) return json({ msg: "Level purchased successfully!" });
    return json({ msg: "Not found." }, 404);
  });
}

const KEY = /^[0-9a-f-]{36}$/;
const posts = (seen: Request[]) => seen.filter((r) => r.method === "POST");

test("buying a level above the next one says 'Please purchase previous levels first.' and sends nothing", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me);
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 3" }));
  expect(await screen.findByText("Please purchase previous levels first.")).toBeTruthy();
  expect(posts(seen)).toHaveLength(0);
});

test("the next level after the highest owned one opens a confirmation and is bought on confirm", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  const seen = serve(me);
  renderClient(<PackagePage />, { me });
  // Level 2 is frozen, not locked, so level 3 is the next one to buy.
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 3" }));
  expect(await screen.findByText("Buy Level 3?")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Yes, buy it!" }));
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  expect(new URL(posts(seen)[0]!.url).pathname).toBe("/api/user/packages/purchase/3p/3");
  expect(posts(seen)[0]!.headers.get("Idempotency-Key")).toMatch(KEY);
});

test("a user with no level can buy level 1 but not level 2", async () => {
  const me = meWith(["locked", "locked", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  expect(await screen.findByText("Please purchase previous levels first.")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Buy Lvl 1" }));
  expect(await screen.findByText("Buy Level 1?")).toBeTruthy();
});

test("a frozen level offers 'Unfreeze Lvl n' instead of a buy button", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  expect(await screen.findByRole("button", { name: "Unfreeze Lvl 2" })).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Buy Lvl 2" })).toBeNull();
});

test("selecting a purchased level shows its slots, a locked one says it is locked", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Grace Hopper")).toBeTruthy();
  expect(screen.getAllByText("Empty")).toHaveLength(2);
  fireEvent.click(screen.getByRole("button", { name: /Level 3/ }));
  expect(await screen.findByText("Level 3 is locked.")).toBeTruthy();
  expect(screen.getByText("Purchase previous levels to unlock.")).toBeTruthy();
});

test("switching to 6P resets the selected level to 1", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: /Level 3/ }));
  expect(await screen.findByText("Level 3 is locked.")).toBeTruthy();
  fireEvent.click(screen.getByRole("tab", { name: "6P" }));
  expect(await screen.findByText("Level 1 is locked.")).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: /Level 1/, pressed: true })).toBeTruthy());
});

test("unfreezing asks first, posts the unfreeze and falls back to 'Level unfrozen successfully!'", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  const seen = serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.includes("/unfreeze/")) return json({ msg: "" });
    return json({ program: "3p", level: 1, status: "active", slotCount: 3, cycles: 0, slots: [], earned: 0 });
  });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Unfreeze Lvl 2" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, unfreeze it!" }));
  expect(await screen.findByText("Level unfrozen successfully!")).toBeTruthy();
  expect(new URL(posts(seen)[0]!.url).pathname).toBe("/api/user/packages/unfreeze/3p/2");
  expect(posts(seen)[0]!.headers.get("Idempotency-Key")).toMatch(KEY);
});

test("a level missing from the price list says 'Could not find level details. Please try again.'", async () => {
  // Levels 1-4 owned, level 5 next to buy, but the price list stops at 4.
  const me = meWith(["active", "active", "active", "active", "locked"]);
  const seen = serve(me);
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 5" }));
  expect(await screen.findByText("Could not find level details. Please try again.")).toBeTruthy();
  expect(posts(seen)).toHaveLength(0);
});
