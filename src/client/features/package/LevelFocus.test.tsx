// Keyboard focus around a level action: the confirmation dialog gives it back to the button that
// opened it, which stays focusable while the action runs; when the action succeeds and its button
// goes, the level's own button takes it.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import * as z from "zod/mini";
import { matrix as matrixSchema } from "../../../shared/contract/member";
import type { Me } from "../../lib/me";
import type { Matrix } from "./api/getMatrix";
import PackagePage from "./PackagePage";

useDom();
closeDialogsAfterEach();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const prices = [1, 2].map((level) => ({ level, cost: 5 * level, unfreezeCost: 2.5 * level }));
type Status = Me["packages"]["3p"]["levels"][number]["status"];
const member = (statuses: Status[]) => {
  const levels = statuses.map((status, i) => ({ level: i + 1, status, cycles: 0, boxes: [] as string[] }));
  return makeMe({ packages: { "3p": { levels }, "6p": { levels: levels.map((l) => ({ ...l, status: "locked" as const })) } } });
};
/** Level 1 of 3P frozen after three cycles, as the server encodes it. */
const frozenMatrix = z.encode(matrixSchema, {
  program: "3p",
  level: 1,
  status: "frozen",
  slotCount: 3,
  cycles: 3,
  slots: [1, 2, 3].map((slot) => ({ slot, filled: false, user: null, filledAt: null, outcome: null, amount: null, to: null })),
  earned: 0n,
  cycle: 4,
  cyclesCompleted: 3,
  missed: 0n,
  unfreezeCost: 250n,
} satisfies Matrix);

/** The page's calls; the action answers after 300 ms (a real round trip, longer than sweetalert2's 100 ms focus return). */
function serve(before: Me, action: () => { me: Me; answer: Response }) {
  let me = before;
  serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.endsWith("/preview")) return json({ msg: "unavailable" }, 503);
    if (path === "/api/user/matrix/3p/1" && me.packages["3p"].levels[0]?.status === "frozen") return json(frozenMatrix);
    if (path.startsWith("/api/user/matrix/")) return json({ msg: "Not found." }, 404);
    if (request.method === "POST") {
      await sleep(300);
      const outcome = action();
      me = outcome.me;
      return outcome.answer;
    }
    return json({ msg: "Not found." }, 404);
  });
}

/** The level card's own button (it selects the level). */
const levelButton = (level: number) => screen.getAllByRole("button", { pressed: true }).find((b) => b.textContent?.startsWith(`Level ${level}`)) ?? null;

/** Tabs to `name`, presses it, confirms. */
async function actWithKeyboard(name: string, confirm: string) {
  const trigger = await screen.findByRole("button", { name });
  trigger.focus();
  fireEvent.click(trigger);
  fireEvent.click(await screen.findByRole("button", { name: confirm }));
}

test("a refused purchase gives the focus back to 'Buy Lvl 1' (it is still there)", async () => {
  const before = member(["locked", "locked"]);
  serve(before, () => ({ me: before, answer: json({ msg: "Insufficient balance.", code: "insufficient_balance" }, 400) }));
  renderClient(<PackagePage />, { me: before });
  await actWithKeyboard("Buy Lvl 1", "Yes, buy it!");
  // The dialog gave the focus back 100 ms after closing, while the purchase ran.
  await act(() => sleep(150));
  expect(document.activeElement?.textContent).toBe("Buy Lvl 1");
  expect(document.activeElement?.getAttribute("aria-disabled")).toBe("true");
  expect(await screen.findByText("Insufficient balance.")).toBeTruthy();
  expect(document.activeElement?.textContent).toBe("Buy Lvl 1");
  expect(document.activeElement?.getAttribute("aria-disabled")).toBe("false");
});

test("while a purchase runs, pressing its button again sends nothing", async () => {
  const before = member(["locked", "locked"]);
  let calls = 0;
  serve(before, () => (calls++, { me: member(["active", "locked"]), answer: json({ msg: "Level purchased successfully!" }) }));
  renderClient(<PackagePage />, { me: before });
  await actWithKeyboard("Buy Lvl 1", "Yes, buy it!");
  await act(() => sleep(150));
  fireEvent.click(screen.getByRole("button", { name: "Buy Lvl 1" }));
  expect(document.querySelector(".swal2-container")).toBeNull();
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  expect(calls).toBe(1);
});

test("after a purchase the keyboard focus moves to the level's own button, not to the page", async () => {
  const before = member(["locked", "locked"]);
  serve(before, () => ({ me: member(["active", "locked"]), answer: json({ msg: "Level purchased successfully!" }) }));
  renderClient(<PackagePage />, { me: before });
  await actWithKeyboard("Buy Lvl 1", "Yes, buy it!");
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("button", { name: "Buy Lvl 1" })).toBeNull());
  expect(document.activeElement).toBe(levelButton(1));
});

test("after an unfreeze from the level's panel the focus moves to the level's own button", async () => {
  const before = member(["frozen", "locked"]);
  serve(before, () => ({ me: member(["active", "locked"]), answer: json({ msg: "Level unfrozen successfully!" }) }));
  renderClient(<PackagePage />, { me: before });
  await actWithKeyboard("Unfreeze for 2.50 $", "Yes, unfreeze it!");
  expect(await screen.findByText("Level unfrozen successfully!")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("button", { name: "Unfreeze for 2.50 $" })).toBeNull());
  expect(document.activeElement).toBe(levelButton(1));
});

test("a level the balance cannot pay for is refused before any dialog, the balance read again first", async () => {
  // 3 USDT, and level 1 costs 5: the member is told at once, nothing is asked or sent.
  const poor = makeMe({ ...member(["locked", "locked"]), balance: 300n });
  let reads = 0;
  let posts = 0;
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return (reads++, json(wireMe(poor)));
    if (path.endsWith("/levels")) return json(prices);
    if (path.endsWith("/preview")) return json({ msg: "unavailable" }, 503);
    if (request.method === "POST") posts++;
    return json({ msg: "Not found." }, 404);
  });
  renderClient(<PackagePage />, { me: poor });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 1" }));
  expect(await screen.findByText("Insufficient balance.")).toBeTruthy();
  expect(document.querySelector(".swal2-container")).toBeNull();
  expect([reads, posts]).toEqual([1, 0]);
});
