import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { levelPreview, matrix as matrixSchema } from "../../../shared/contract/member";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import { meKey, type Me } from "../../lib/me";
import type { Matrix, MatrixSlot } from "./api/getMatrix";
import PackagePage from "./PackagePage";
import { useLiveEvents } from "../../lib/liveEvents";

useDom();
closeDialogsAfterEach();

function meWith(levels: { status: "active" | "frozen" | "locked"; boxes?: string[] }[]): Me {
  const l3 = levels.map((l, i) => ({ level: i + 1, status: l.status, cycles: 0, boxes: l.boxes ?? [] }));
  return makeMe({ packages: { "3p": { levels: l3 }, "6p": { levels: l3.map((l) => ({ ...l, status: "locked" as const, boxes: [] })) } } });
}

const empty = (slot: number): MatrixSlot => ({ slot, filled: false, user: null, filledAt: null, outcome: null, amount: null, to: null });
const paid = (slot: number, name: string): MatrixSlot => ({
  slot,
  filled: true,
  user: { id: `p${slot}`, name },
  filledAt: new Date("2026-11-20T10:30:00.000Z"),
  outcome: "paid",
  amount: 500n,
  to: null,
});
const wireMatrix = (level: number, over: Partial<Matrix> = {}) =>
  z.encode(matrixSchema, {
    program: "3p",
    level,
    status: "active",
    slotCount: 3,
    cycles: 0,
    slots: [empty(1), empty(2), empty(3)],
    earned: 0n,
    cycle: 1,
    cyclesCompleted: 0,
    missed: 0n,
    unfreezeCost: 250n,
    ...over,
  } as Matrix);

/**
 * An admin raised Level 2's price from 10 to 20 after the member's Packages page read the price
 * list. The member clicks Buy: the preview (the server's figure) says 20.00, the dialog says
 * 20.00, the purchase succeeds and 20.00 is charged: the card must say so too (it kept "10.00 $").
 */
test("after a purchase at the server's current price, the level card shows the price actually paid", async () => {
  let prices = [1, 2, 3].map((level) => ({ level, cost: 5 * 2 ** (level - 1), unfreezeCost: 2.5 * 2 ** (level - 1) }));
  let me = meWith([{ status: "active" }, { status: "locked" }, { status: "locked" }]);
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.endsWith("/preview"))
      return json(z.encode(levelPreview, { action: "purchase", program: "3p", level: 2, amount: 2_000n, receiver: null, matrix: null }));
    const m = path.match(/\/api\/user\/matrix\/3p\/(\d+)$/);
    if (m) return json(wireMatrix(Number(m[1])));
    if (request.method === "POST" && path.includes("/purchase/3p/2")) {
      me = meWith([{ status: "active" }, { status: "active" }, { status: "locked" }]);
      return json({ msg: "Level purchased successfully!" });
    }
    return json({ msg: "Not found." }, 404);
  });
  // The admin's edit (what the server now answers), after the page read the list.
  renderClient(<PackagePage />, { me });
  const card = async () => (await screen.findByRole("button", { name: /^Level 2/ })).closest("article")!;
  expect((await card()).textContent).toContain("10.00 $");
  prices = prices.map((p) => (p.level === 2 ? { ...p, cost: 20, unfreezeCost: 10 } : p));
  fireEvent.click(screen.getByRole("button", { name: "Buy Lvl 2" }));
  const dialog = await screen.findByRole("dialog");
  expect(dialog.textContent!.replace(/\s/g, " ")).toContain("costs 20.00 $");
  fireEvent.click(screen.getByRole("button", { name: "Yes, buy it!" }));
  expect(await screen.findByText("Level purchased successfully!")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("button", { name: "Buy Lvl 2" })).toBeNull());
  // The member paid 20.00 $ for Level 2; its card says what it costs.
  await waitFor(async () => expect((await card()).textContent).toContain("20.00 $"));
});

/**
 * A live "balance" event: someone took slot 2 of the member's Level 1 and paid them (the member
 * muted "slot_taken" notifications, so only the balance event comes): the card and the matrix
 * panel beside it are both read again (the panel was not).
 */
test("a live balance event (a partner paid into my matrix) refreshes the slots shown, not only the card", async () => {
  const prices = [1, 2].map((level) => ({ level, cost: 5 * 2 ** (level - 1), unfreezeCost: 2.5 * 2 ** (level - 1) }));
  let me = meWith([{ status: "active", boxes: ["a"] }, { status: "locked" }]);
  let matrix = wireMatrix(1, { slots: [paid(1, "Grace Hopper"), empty(2), empty(3)], earned: 500n });
  let push: ((text: string) => void) | undefined;
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/user/events") {
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          c.enqueue(new TextEncoder().encode("event: ready\nid: 1\ndata: {}\n\n"));
          push = (text) => c.enqueue(new TextEncoder().encode(text));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.match(/\/api\/user\/matrix\/3p\/1$/)) return json(matrix);
    return json({ msg: "Not found." }, 404);
  });
  function Live() {
    useLiveEvents("test-token", false);
    return null;
  }
  renderClient(
    <>
      <Live />
      <PackagePage />
    </>,
    { me },
  );
  const slots = await screen.findByRole("list", { name: "Slots of cycle 1" });
  expect(within(slots).getAllByText("Empty")).toHaveLength(2);
  await waitFor(() => expect(push).toBeDefined());
  // The server: Linus took slot 2 and paid the member.
  me = meWith([{ status: "active", boxes: ["a", "b"] }, { status: "locked" }]);
  matrix = wireMatrix(1, { slots: [paid(1, "Grace Hopper"), paid(2, "Linus"), empty(3)], earned: 1000n });
  push!("event: balance\ndata: {}\n\n");
  const card = (await screen.findByRole("button", { name: /^Level 1/ })).closest("article")!;
  await waitFor(() => expect(card.textContent).toContain("2/3 filled"));
  // The card says 2 of 3 slots are filled; the panel beside it must show the same.
  await waitFor(() => expect(within(screen.getByRole("list", { name: "Slots of cycle 1" })).getAllByText("Empty")).toHaveLength(1));
});

/**
 * A slot passed up from the member's matrix (or one whose notice they muted) moves no money to
 * them, so no live event comes: the current user's half-minute reading is what shows the slot
 * taken. The slots panel follows the card then.
 */
test("when the card's figures change without a live event (the current user read again), the slots panel is read again too", async () => {
  const prices = [1, 2].map((level) => ({ level, cost: 5 * 2 ** (level - 1), unfreezeCost: 2.5 * 2 ** (level - 1) }));
  let me = meWith([{ status: "active", boxes: ["a", "b"] }, { status: "locked" }]);
  let matrix = wireMatrix(1, { slots: [paid(1, "Grace Hopper"), paid(2, "Alan"), empty(3)], earned: 1000n });
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path.endsWith("/levels")) return json(prices);
    if (path.match(/\/api\/user\/matrix\/3p\/1$/)) return json(matrix);
    return json({ msg: "Not found." }, 404);
  });
  const { client } = renderClient(<PackagePage />, { me });
  expect(within(await screen.findByRole("list", { name: "Slots of cycle 1" })).getAllByText("Empty")).toHaveLength(1);
  // Slot 3 completed the cycle and passed up: a new cycle, its slots empty; nothing was paid to the member.
  me = makeMe({ packages: { "3p": { levels: [{ level: 1, status: "active", cycles: 1, boxes: [] }, { level: 2, status: "locked", cycles: 0, boxes: [] }] }, "6p": { levels: [] } } });
  matrix = wireMatrix(1, { cycle: 2, cyclesCompleted: 1, cycles: 1, slots: [empty(1), empty(2), empty(3)] });
  await client.invalidateQueries({ queryKey: meKey });
  await waitFor(() => expect(within(screen.getByRole("list", { name: "Slots of cycle 2" })).getAllByText("Empty")).toHaveLength(3));
});
