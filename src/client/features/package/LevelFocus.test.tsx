// Keyboard focus around a purchase: the confirmation dialog gives it back to the button that opened
// it, which stays focusable while the purchase runs; when the purchase succeeds and the button goes,
// the level's own button takes it.
import { json, serveFetch, useDom } from "../../../testing/dom";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "bun:test";
import Swal from "sweetalert2";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import type { Me } from "../../lib/me";
import PackagePage from "./PackagePage";

useDom();
afterEach(() => {
  Swal.close();
  for (const node of document.querySelectorAll(".swal2-container")) node.remove();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const prices = [1, 2].map((level) => ({ level, cost: 5 * level, unfreezeCost: 2.5 * level }));
const member = (statuses: Me["packages"]["3p"]["levels"][number]["status"][]) => {
  const levels = statuses.map((status, i) => ({ level: i + 1, status, cycles: 0, boxes: [] as string[] }));
  return makeMe({ packages: { "3p": { levels }, "6p": { levels: levels.map((l) => ({ ...l, status: "locked" as const })) } } });
};

/** The page's calls; the purchase answers after 300 ms (a real round trip, longer than sweetalert2's 100 ms focus return). */
function serve(before: Me, purchase: () => { me: Me; answer: Response }) {
  let me = before;
  serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.endsWith("/preview")) return json({ msg: "unavailable" }, 503);
    if (path.startsWith("/api/user/matrix/")) return json({ msg: "Not found." }, 404);
    if (request.method === "POST") {
      await sleep(300);
      const outcome = purchase();
      me = outcome.me;
      return outcome.answer;
    }
    return json({ msg: "Not found." }, 404);
  });
}

async function buyLevel1WithKeyboard() {
  const trigger = await screen.findByRole("button", { name: "Buy Lvl 1" });
  trigger.focus(); // a keyboard user tabbed to it
  fireEvent.click(trigger);
  fireEvent.click(await screen.findByRole("button", { name: "Yes, buy it!" }));
}

test("a refused purchase gives the focus back to 'Buy Lvl 1' (it is still there)", async () => {
  const before = member(["locked", "locked"]);
  serve(before, () => ({ me: before, answer: json({ msg: "Insufficient balance.", code: "insufficient_balance" }, 400) }));
  renderClient(<PackagePage />, { me: before });
  await buyLevel1WithKeyboard();
  expect(await screen.findByText("Insufficient balance.")).toBeTruthy();
  await act(() => sleep(200));
  // The dialog gave the focus back 100 ms after closing, while the purchase ran.
  expect(document.activeElement?.textContent).toBe("Buy Lvl 1");
});

test("after a purchase the keyboard focus is not dropped to <body>", async () => {
  const before = member(["locked", "locked"]);
  serve(before, () => ({ me: member(["active", "locked"]), answer: json({ msg: "Level purchased successfully!" }) }));
  renderClient(<PackagePage />, { me: before });
  await buyLevel1WithKeyboard();
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("button", { name: "Buy Lvl 1" })).toBeNull());
  await act(() => sleep(200));
  expect(document.activeElement?.textContent).toContain("Level 1");
});
