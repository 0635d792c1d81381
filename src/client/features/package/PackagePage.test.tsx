import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { SLOTS_PER_LEVEL, type ProgramId } from "../../../shared/constants";
import { levelPreview, matrix as matrixSchema } from "../../../shared/contract/member";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import type { Me } from "../../lib/me";
import type { LevelPreview } from "./api/getPreview";
import type { Matrix, MatrixSlot } from "./api/getMatrix";
import PackagePage from "./PackagePage";
import { standing } from "../../components/CycleNav";

useDom();

closeDialogsAfterEach();

const prices = [1, 2, 3, 4].map((level) => ({ level, cost: 5 * 2 ** (level - 1), unfreezeCost: 2.5 * 2 ** (level - 1) }));

/** 3P levels 1..n with the given statuses; 6P all locked. */
function meWith(statuses: Me["packages"]["3p"]["levels"][number]["status"][], cycles = 0): Me {
  const levels = statuses.map((status, i) => ({ level: i + 1, status, cycles, boxes: status === "locked" ? [] : ["a"] }));
  return makeMe({ packages: { "3p": { levels }, "6p": { levels: levels.map((l) => ({ ...l, status: "locked" as const, boxes: [] })) } } });
}

const GRACE = { id: "p1", name: "Grace Hopper" };
const FILLED_AT = new Date("2026-11-20T10:30:00.000Z");

const empty = (slot: number): MatrixSlot => ({ slot, filled: false, user: null, filledAt: null, outcome: null, amount: null, to: null });
const paid = (slot: number, user = GRACE, amount = 500n): MatrixSlot => ({
  slot,
  filled: true,
  user,
  filledAt: FILLED_AT,
  outcome: "paid",
  amount,
  to: { name: "Ada Lovelace" },
});
const passedUp = (slot: number, to: string, user = GRACE, amount = 500n): MatrixSlot => ({
  ...paid(slot, user, amount),
  outcome: "passed_up",
  to: { name: to },
});

/** A matrix answer as the server sends it: built inside (cents, Dates), encoded through the contract. */
function wireMatrix(program: ProgramId, level: number, over: Partial<Matrix> = {}) {
  const slotCount = SLOTS_PER_LEVEL[program];
  const value: Matrix = {
    program,
    level,
    status: "active",
    slotCount,
    cycles: 0,
    slots: Array.from({ length: slotCount }, (_, i) => (i === 0 ? paid(1) : empty(i + 1))),
    earned: 750n,
    cycle: 1,
    cyclesCompleted: 0,
    missed: 0n,
    unfreezeCost: 250n,
    ...over,
  };
  return z.encode(matrixSchema, value);
}

const wirePreview = (value: LevelPreview) => z.encode(levelPreview, value);

type Route = (request: Request, path: string) => Response | undefined;

/** The page's calls: me, prices, matrices (`matrix` answers them), previews, purchase and unfreeze. */
function serve(me: Me, { matrix, preview, post }: { matrix?: Route; preview?: Route; post?: Route } = {}) {
  return serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.endsWith("/preview")) return preview?.(request, path) ?? json({ msg: "Not found.", code: "not_found" }, 404);
    const m = path.match(/\/api\/user\/matrix\/(\dp)\/(\d+)$/);
    if (m) return matrix?.(request, path) ?? json(wireMatrix(m[1] as ProgramId, Number(m[2])));
    if (request.method === "POST") {
      const answer = post?.(request, path);
      if (answer) return answer;
      if (path.includes("/purchase/")) return json({ msg: "Level purchased successfully!" });
      if (path.includes("/unfreeze/")) return json({ msg: "Level unfrozen successfully!" });
    }
    return json({ msg: "Not found." }, 404);
  });
}

const KEY = /^[0-9a-f-]{36}$/;
const posts = (seen: Request[]) => seen.filter((r) => r.method === "POST");
const matrixCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname.startsWith("/api/user/matrix/")).map((r) => r.url.replace(/^https?:\/\/[^/]+/, ""));
/** The sweetalert2 dialog's text. */
const dialogText = async () => (await screen.findByRole("dialog")).textContent!.replace(/\s+/g, " ");

// The spec's gating and dialogs

test("buying a level above the next one says 'Please purchase previous levels first.' and sends nothing", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me);
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 3" }));
  expect(await screen.findByText("Please purchase previous levels first.")).toBeTruthy();
  expect(posts(seen)).toHaveLength(0);
  expect(seen.some((r) => r.url.endsWith("/preview"))).toBe(false);
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
  expect(screen.getByText("Filled")).toBeTruthy();
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
  // 6P level 1 is not owned, and level 1 can always be bought: it reads available (was "locked").
  expect(await screen.findByText("Level 1 is available.")).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: /Level 1/, pressed: true })).toBeTruthy());
});

test("unfreezing asks first, posts the unfreeze and falls back to 'Level unfrozen successfully!'", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  const seen = serve(me, { post: (_r, path) => (path.includes("/unfreeze/") ? json({ msg: "" }) : undefined) });
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

// Where the money went: slots

test("each filled slot says who, when, and where the money went; pass-up slots look different and say so", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me, {
    matrix: (_r, path) =>
      path.endsWith("/6p/1")
        ? undefined
        : json(wireMatrix("3p", 1, { slots: [paid(1), passedUp(2, "Alan Turing", { id: "p2", name: "Linus" }, 500n), empty(3)] })),
  });
  renderClient(<PackagePage />, { me });
  const list = await screen.findByRole("list", { name: "Slots of cycle 1" });
  const [one, two, three] = within(list).getAllByRole("listitem");

  expect(one!.textContent).toContain("Grace Hopper");
  expect(one!.textContent).toContain("Paid to you");
  expect(within(one!).getByText("5.00 $")).toBeTruthy();
  expect(one!.querySelector(`time[datetime="${FILLED_AT.toISOString()}"]`)).toBeTruthy();

  expect(two!.textContent).toContain("Linus");
  expect(two!.textContent).toContain("Passed up to Alan Turing");
  expect(two!.querySelector(`time[datetime="${FILLED_AT.toISOString()}"]`)).toBeTruthy();

  // The last slot is still empty but already marked: it will pass up and complete the cycle.
  expect(three!.textContent).toContain("Empty");
  expect(three!.textContent).toContain("Passes up, completes the cycle");

  // Not colour alone: a pass-up slot has its own frame, an icon and words; a paid one has neither.
  expect(two!.getAttribute("data-outcome")).toBe("passed_up");
  expect(one!.getAttribute("data-outcome")).toBe("paid");
  expect(two!.className).not.toBe(one!.className);
  expect(three!.className).toContain("border-dashed");
  expect(two!.querySelectorAll("svg").length).toBeGreaterThan(0);
  expect(one!.textContent).not.toContain("Passe");
});

test("money passed up to the System account reads 'Passed up to the platform'", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me, { matrix: () => json(wireMatrix("3p", 1, { slots: [paid(1), paid(2), passedUp(3, "System")], cycle: 1, cyclesCompleted: 1, cycles: 1 })) });
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Passed up to the platform")).toBeTruthy();
  expect(screen.queryByText(/System/)).toBeNull();
});

test("in 6P, empty slot 1 and slot 6 are marked as passing up, slots 2-5 as paying the member", async () => {
  const me = makeMe({
    packages: {
      "3p": { levels: [{ level: 1, status: "locked", cycles: 0, boxes: [] }] },
      "6p": { levels: [{ level: 1, status: "active", cycles: 0, boxes: [] }] },
    },
  });
  serve(me, { matrix: () => json(wireMatrix("6p", 1, { slots: [1, 2, 3, 4, 5, 6].map(empty) })) });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("tab", { name: "6P" }));
  const list = await screen.findByRole("list", { name: "Slots of cycle 1" });
  const outcomes = within(list)
    .getAllByRole("listitem")
    .map((li) => li.getAttribute("data-outcome"));
  expect(outcomes).toEqual(["passed_up", "paid", "paid", "paid", "paid", "passed_up"]);
  expect(within(list).getAllByText("Passes up")).toHaveLength(1);
  expect(within(list).getAllByText("Passes up, completes the cycle")).toHaveLength(1);
  expect(within(list).getAllByText("Pays you")).toHaveLength(4);
});

// Cycles

test("an active level says which cycle it is in before freezing, and earlier cycles are a click away with ?cycle=N", async () => {
  const me = meWith(["active", "locked", "locked", "locked"], 1);
  const seen = serve(me, {
    matrix: (request) => {
      const cycle = new URL(request.url).searchParams.get("cycle");
      if (cycle === "1") {
        return json(wireMatrix("3p", 1, { cycles: 1, cyclesCompleted: 1, cycle: 1, slots: [paid(1), paid(2, { id: "p3", name: "Barbara Liskov" }), passedUp(3, "Alan Turing")] }));
      }
      return json(wireMatrix("3p", 1, { cycles: 1, cyclesCompleted: 1, cycle: 2 }));
    },
  });
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Cycle 2 of 2 before freezing")).toBeTruthy();

  const nav = screen.getByRole("navigation", { name: "Cycles of Level 1" });
  const status = within(nav).getByText(/Showing cycle/);
  expect(status.getAttribute("aria-live")).toBe("polite");
  expect(status.textContent).toBe("Showing cycle 2 of 2 (current)");
  const previous = within(nav).getByRole("button", { name: "Previous cycle" });
  const next = within(nav).getByRole("button", { name: "Next cycle" });
  expect(next.getAttribute("aria-disabled")).toBe("true");

  fireEvent.click(previous);
  expect(await screen.findByText("Barbara Liskov")).toBeTruthy();
  expect(matrixCalls(seen)).toEqual(["/api/user/matrix/3p/1", "/api/user/matrix/3p/1?cycle=1"]);
  await waitFor(() => expect(status.textContent).toBe("Showing cycle 1 of 2 (completed)"));
  expect(screen.getByText("Passed up to Alan Turing")).toBeTruthy();
  expect(previous.getAttribute("aria-disabled")).toBe("true");
  // At the first cycle, Previous stays focusable but does nothing.
  fireEvent.click(previous);

  fireEvent.click(next);
  await waitFor(() => expect(status.textContent).toBe("Showing cycle 2 of 2 (current)"));
  // The current cycle comes from the cache: no third call, and never a ?cycle=0.
  expect(matrixCalls(seen)).toHaveLength(2);
});

test("a level with no completed cycle shows no cycle buttons", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Cycle 1 of 2 before freezing")).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Previous cycle" })).toBeNull();
});

test("a frozen level says what it has missed, what unfreezing costs and what it brings back", async () => {
  const me = meWith(["frozen", "locked", "locked", "locked"], 2);
  const froze = [paid(1), paid(2), passedUp(3, "Alan Turing")];
  const seen = serve(me, {
    // Frozen: the server shows the cycle that froze the level; the next one starts on unfreezing.
    matrix: (request) => {
      const cycle = Number(new URL(request.url).searchParams.get("cycle") ?? 2);
      return json(wireMatrix("3p", 1, { status: "frozen", cycles: 2, cyclesCompleted: 2, cycle, slots: froze, missed: 1_250n, unfreezeCost: 250n }));
    },
    preview: () => json(wirePreview({ action: "unfreeze", program: "3p", level: 1, amount: 250n, receiver: GRACE, matrix: null })),
  });
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Frozen after 2 cycles")).toBeTruthy();
  const note = screen.getByText("Level 1 is frozen.").parentElement!;
  expect(note.textContent).toContain("Missed so far: 12.50 $");
  expect(note.textContent).toContain("Unfreezing costs 2.50 $: the level starts a new cycle and receives payments again.");
  expect(screen.getByText(/Showing cycle/).textContent).toBe("Showing cycle 2 of 2 (completed, froze the level)");
  expect(screen.getByRole("button", { name: "Next cycle" }).getAttribute("aria-disabled")).toBe("true");
  fireEvent.click(screen.getByRole("button", { name: "Previous cycle" }));
  await waitFor(() => expect(screen.getByText(/Showing cycle/).textContent).toBe("Showing cycle 1 of 2 (completed)"));
  expect(matrixCalls(seen)).toEqual(["/api/user/matrix/3p/1", "/api/user/matrix/3p/1?cycle=1"]);

  fireEvent.click(within(note).getByRole("button", { name: "Unfreeze for 2.50 $" }));
  expect(await dialogText()).toContain("2.50 $ goes to Grace Hopper.");
  fireEvent.click(screen.getByRole("button", { name: "Yes, unfreeze it!" }));
  expect(await screen.findByText("Level unfrozen successfully!")).toBeTruthy();
  expect(new URL(posts(seen)[0]!.url).pathname).toBe("/api/user/packages/unfreeze/3p/1");
});

test("after an unfreeze the panel numbers cycles one way: the third cycle is 'Cycle 3' in the standing and in the pager", async () => {
  const me = meWith(["active", "locked", "locked", "locked"], 0);
  serve(me, { matrix: () => json(wireMatrix("3p", 1, { cycles: 0, cyclesCompleted: 2, cycle: 3 })) });
  renderClient(<PackagePage />, { me });
  expect(await screen.findByText("Cycle 3 · 1 of 2 before freezing again")).toBeTruthy();
  expect(screen.getByText(/Showing cycle/).textContent).toBe("Showing cycle 3 of 3 (current)");
  // The card counts what is left, not a cycle's number it cannot know.
  const card = screen.getByRole("button", { name: /Level 1/, pressed: true }).closest("article")!;
  expect(within(card).getByText("Freezes after").nextElementSibling?.textContent).toBe("2 cycles");
  expect(screen.queryByText(/Cycle 1 of 2/)).toBeNull();
});

test("the standing of a level, cycles numbered over its whole life", () => {
  expect(standing({ status: "active", cycles: 0, cyclesCompleted: 0 })).toBe("Cycle 1 of 2 before freezing");
  expect(standing({ status: "active", cycles: 1, cyclesCompleted: 1 })).toBe("Cycle 2 of 2 before freezing");
  expect(standing({ status: "frozen", cycles: 2, cyclesCompleted: 2 })).toBe("Frozen after 2 cycles");
  expect(standing({ status: "active", cycles: 0, cyclesCompleted: 2 })).toBe("Cycle 3 · 1 of 2 before freezing again");
  expect(standing({ status: "active", cycles: 1, cyclesCompleted: 3 })).toBe("Cycle 4 · 2 of 2 before freezing again");
  expect(standing({ status: "frozen", cycles: 2, cyclesCompleted: 4 })).toBe("Frozen after cycle 4 (2 since unfreezing)");
});

test("a frozen level and an unbought one link to what they missed, that level's list", async () => {
  const me = meWith(["frozen", "locked", "locked", "locked"], 2);
  serve(me, { matrix: () => json(wireMatrix("3p", 1, { status: "frozen", cycles: 2, cyclesCompleted: 2, cycle: 2, missed: 1_250n })) });
  renderClient(<PackagePage />, { me });
  const note = (await screen.findByText("Level 1 is frozen.")).parentElement!;
  expect(within(note).getByRole("link", { name: "See each missed payment" }).getAttribute("href")).toBe("/userDashboard/missed?program=3p&level=1");
  fireEvent.click(screen.getByRole("button", { name: /Level 2/ }));
  expect((await screen.findByRole("link", { name: "What you missed at Level 2" })).getAttribute("href")).toBe("/userDashboard/missed?program=3p&level=2");
  fireEvent.click(screen.getByRole("button", { name: /Level 3/ }));
  expect((await screen.findByRole("link", { name: "What you missed at Level 3" })).getAttribute("href")).toBe("/userDashboard/missed?program=3p&level=3");
});

// Available, not locked

test("a new member's level 1 reads 'Available' with its Buy button; level 2 still reads locked", async () => {
  const me = meWith(["locked", "locked", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  const one = (await screen.findByRole("button", { name: /Level 1/, pressed: true })).closest("article")!;
  expect(within(one).getByText("Available")).toBeTruthy();
  expect(within(one).queryByText("Locked")).toBeNull();
  expect(within(one).getByRole("button", { name: "Buy Lvl 1" }).className).toContain("btn-primary");
  expect(screen.getByText("Level 1 is available.")).toBeTruthy();
  expect(screen.queryByText("Level 1 is locked.")).toBeNull();

  const two = screen.getByRole("button", { name: /Level 2/ }).closest("article")!;
  expect(within(two).getByText("Locked")).toBeTruthy();
  expect(within(two).getByText("Buy Level 1 first")).toBeTruthy();
  expect(within(two).getByRole("button", { name: "Buy Lvl 2" }).className).toContain("btn-secondary");
});

test("the level above the highest owned one reads 'Available' too", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  serve(me);
  renderClient(<PackagePage />, { me });
  const three = (await screen.findByRole("button", { name: /Level 3/ })).closest("article")!;
  expect(within(three).getByText("Available")).toBeTruthy();
  const four = screen.getByRole("button", { name: /Level 4/ }).closest("article")!;
  expect(within(four).getByText("Buy Level 3 first")).toBeTruthy();
});

// The dialogs name the receiver

test("the buy dialog says which slot of whose matrix the member takes and who receives the money", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me, {
    preview: () => json(wirePreview({ action: "purchase", program: "3p", level: 2, amount: 1_000n, receiver: GRACE, matrix: { owner: GRACE, slot: 2, outcome: "paid" } })),
  });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  const text = await dialogText();
  expect(text).toContain("Level 2 of 3P costs 10.00 $, paid from your balance.");
  expect(text).toContain("You take slot 2 in Grace Hopper's matrix. 10.00 $ goes to Grace Hopper.");
  expect(seen.find((r) => r.url.endsWith("/preview"))!.url).toEndWith("/api/user/packages/purchase/3p/2/preview");
  expect(posts(seen)).toHaveLength(0);
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(posts(seen)).toHaveLength(0);
});

test("a slot that passes up says so, and the receiver is the one above", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  serve(me, {
    preview: () =>
      json(wirePreview({ action: "purchase", program: "3p", level: 2, amount: 1_000n, receiver: { name: "Alan Turing" }, matrix: { owner: GRACE, slot: 3, outcome: "passed_up" } })),
  });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  expect(await dialogText()).toContain("You take slot 3 in Grace Hopper's matrix; that slot passes the money up, so 10.00 $ goes to Alan Turing.");
});

test("with no receiver above, the dialogs say the money goes to the platform", async () => {
  const me = meWith(["active", "frozen", "locked", "locked"]);
  serve(me, {
    preview: (_r, path) =>
      json(wirePreview({ action: path.includes("/unfreeze/") ? "unfreeze" : "purchase", program: "3p", level: 2, amount: 500n, receiver: null, matrix: null })),
  });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Unfreeze Lvl 2" }));
  const text = await dialogText();
  expect(text).toContain("Unfreezing Level 2 of 3P costs 5.00 $, paid from your balance. The level starts a new cycle.");
  expect(text).toContain("5.00 $ goes to the platform: no one above you holds Level 2 of 3P active.");
  expect(text).not.toContain("You take slot");
});

test("when the preview fails the member still decides: the dialog opens without the receiver and the purchase goes through", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me, { preview: () => json({ msg: "Server error.", code: "server_error" }, 500) });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  const text = await dialogText();
  expect(text).toContain("Level 2 of 3P costs 10.00 $, paid from your balance.");
  expect(text).toContain("Who receives it could not be checked right now.");
  expect(text).not.toContain("goes to");
  expect(screen.queryByText("Server error.")).toBeNull(); // no error toast for the preview
  fireEvent.click(screen.getByRole("button", { name: "Yes, buy it!" }));
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  expect(new URL(posts(seen)[0]!.url).pathname).toBe("/api/user/packages/purchase/3p/2");
});

test("a preview refused by the level rules shows the refusal and opens no dialog", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me, { preview: () => json({ msg: "This level is already active.", code: "level_already_active" }, 400) });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  expect(await screen.findByText("This level is already active.")).toBeTruthy();
  expect(screen.queryByRole("dialog")).toBeNull();
  expect(posts(seen)).toHaveLength(0);
});

test("after a purchase every cycle of the program's matrices is refreshed", async () => {
  const me = meWith(["active", "locked", "locked", "locked"], 1);
  const seen = serve(me, {
    matrix: (request) => {
      const cycle = new URL(request.url).searchParams.get("cycle");
      return json(wireMatrix("3p", 1, { cycles: 1, cyclesCompleted: 1, cycle: cycle ? Number(cycle) : 2 }));
    },
  });
  const { client } = renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Previous cycle" }));
  await waitFor(() => expect(screen.getByText(/Showing cycle/).textContent).toBe("Showing cycle 1 of 2 (completed)"));
  fireEvent.click(screen.getByRole("button", { name: "Buy Lvl 2" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, buy it!" }));
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  // Buying selects the level bought; both cycles of level 1 are stale, whichever is shown next.
  const level1 = client.getQueryCache().findAll({ queryKey: ["matrix", "3p", 1] });
  expect(level1).toHaveLength(2);
  await waitFor(() => expect(level1.every((q) => q.state.isInvalidated || q.state.dataUpdateCount > 1)).toBe(true));
  expect(matrixCalls(seen).length).toBeGreaterThanOrEqual(2);
});

test("the price the dialog showed is sent with the purchase; when an admin changed it meanwhile, the refusal is shown and the prices are read again", async () => {
  const me = meWith(["active", "locked", "locked", "locked"]);
  const seen = serve(me, {
    preview: () => json(wirePreview({ action: "purchase", program: "3p", level: 2, amount: 1_000n, receiver: GRACE, matrix: { owner: GRACE, slot: 2, outcome: "paid" } })),
    post: () => json({ msg: "The price of this level has just changed. Nothing was charged: please check the new price and try again.", code: "price_changed" }, 409),
  });
  renderClient(<PackagePage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Buy Lvl 2" }));
  expect(await dialogText()).toContain("Level 2 of 3P costs 10.00 $");
  const pricesRead = seen.filter((r) => new URL(r.url).pathname.endsWith("/levels")).length;
  fireEvent.click(screen.getByRole("button", { name: "Yes, buy it!" }));
  expect(await screen.findByText("The price of this level has just changed. Nothing was charged: please check the new price and try again.")).toBeTruthy();
  expect(await posts(seen)[0]!.clone().json()).toEqual({ expectedCost: "10.00" });
  await waitFor(() => expect(seen.filter((r) => new URL(r.url).pathname.endsWith("/levels")).length).toBeGreaterThan(pricesRead));
});
