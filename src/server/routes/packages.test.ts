import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { missedEarnings } from "../../db/schema";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { matrixHelpers, stepsOf, systemBalance } from "../../testing/matrix";

// Level 1 costs $5 in both programs; unfreezing it costs $2.50. The admin (root) never buys, so
// a walk that reaches it pays `system`. Every test builds its own branch under the admin.
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

test("3P: slots 1 and 2 pay the owner, slot 3 completes a cycle and passes up, the second cycle freezes", async () => {
  const top = await m.member();
  const owner = await m.member(top);
  const b = [];
  for (let i = 0; i < 6; i++) b.push(await m.member(owner));
  await m.bought(top, "3p", 1); // no eligible upline: system
  await m.bought(owner, "3p", 1); // top, slot 1: paid
  expect(await m.balance(top)).toBe(100);

  await m.bought(b[0]!, "3p", 1);
  await m.bought(b[1]!, "3p", 1);
  expect(await m.balance(owner)).toBe(105);
  expect((await m.matrix(owner, "3p", 1)).slots.map((s: any) => s.user?._id ?? null)).toEqual([b[0]!.id, b[1]!.id, null]);

  await m.bought(b[2]!, "3p", 1); // owner's slot 3: cycle 1 done, passed up to top's slot 2
  expect(await stepsOf(h.db, b[2]!.id)).toEqual([
    [owner.id, 3, 1, "pass_up"],
    [top.id, 2, 1, "paid"],
  ]);
  expect(await m.balance(owner)).toBe(105);
  expect(await m.balance(top)).toBe(105);
  const afterFirst = await m.matrix(owner, "3p", 1);
  expect([afterFirst.status, afterFirst.cycles, afterFirst.slots.filter((s: any) => s.filled).length]).toEqual(["active", 1, 0]);

  await m.bought(b[3]!, "3p", 1);
  await m.bought(b[4]!, "3p", 1);
  const systemBefore = await systemBalance(h.db);
  await m.bought(b[5]!, "3p", 1); // owner's cycle 2: frozen; top's slot 3 completes its cycle: system
  expect(await stepsOf(h.db, b[5]!.id)).toEqual([
    [owner.id, 3, 2, "pass_up"],
    [top.id, 3, 1, "pass_up"],
    [null, null, null, "system"],
  ]);
  expect(await systemBalance(h.db)).toBe(systemBefore + 500n);
  const frozen = await m.matrix(owner, "3p", 1);
  expect([frozen.status, frozen.cycles, frozen.earned]).toEqual(["frozen", 2, 20]);
  expect(await m.balance(owner)).toBe(115);
  expect((await m.matrix(top, "3p", 1)).earned).toBe(10);
  await h.checkLedger();
});

test("a frozen receiver is skipped: the payment goes to the next eligible user above", async () => {
  const top = await m.member();
  const owner = await m.member(top);
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1); // top slot 1
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1); // owner freezes
  expect((await m.matrix(owner, "3p", 1)).status).toBe("frozen");
  const topBefore = await m.balance(top);

  const late = await m.member(owner);
  await m.bought(late, "3p", 1);
  expect(await stepsOf(h.db, late.id)).toEqual([[top.id, 1, 2, "paid"]]);
  expect(await m.balance(top)).toBe(topBefore + 5);
  await h.checkLedger();
});

test("6P: slot 1 passes up, slots 2 to 5 pay the owner, slot 6 completes a cycle and passes up", async () => {
  const top = await m.member();
  const owner = await m.member(top);
  await m.bought(top, "6p", 1); // system
  await m.bought(owner, "6p", 1); // top's slot 1: passed up to system
  expect(await stepsOf(h.db, owner.id)).toEqual([
    [top.id, 1, 1, "pass_up"],
    [null, null, null, "system"],
  ]);
  expect(await m.balance(top)).toBe(95);

  const b = [];
  for (let i = 0; i < 6; i++) b.push(await m.member(owner));
  await m.bought(b[0]!, "6p", 1);
  expect(await stepsOf(h.db, b[0]!.id)).toEqual([
    [owner.id, 1, 1, "pass_up"],
    [top.id, 2, 1, "paid"],
  ]);
  for (let i = 1; i <= 4; i++) {
    await m.bought(b[i]!, "6p", 1);
    expect(await stepsOf(h.db, b[i]!.id)).toEqual([[owner.id, i + 1, 1, "paid"]]);
  }
  expect(await m.balance(owner)).toBe(115);
  await m.bought(b[5]!, "6p", 1);
  expect(await stepsOf(h.db, b[5]!.id)).toEqual([
    [owner.id, 6, 1, "pass_up"],
    [top.id, 3, 1, "paid"],
  ]);
  const own = await m.matrix(owner, "6p", 1);
  expect([own.status, own.cycles, own.slotCount, own.slots.filter((s: any) => s.filled).length, own.earned]).toEqual(["active", 1, 6, 0, 20]);
  const above = await m.matrix(top, "6p", 1);
  expect(above.slots.map((s: any) => s.user?._id ?? null)).toEqual([owner.id, b[0]!.id, b[5]!.id, null, null, null]);
  expect(await m.balance(top)).toBe(105);
  await h.checkLedger();
});

test("a deleted receiver is skipped: the payment passes through it to the next eligible user", async () => {
  const top = await m.member();
  const gone = await m.member(top);
  const buyer = await m.member(gone);
  await m.bought(top, "3p", 1);
  await m.bought(gone, "3p", 1); // top's slot 1
  const deleted = await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken });
  expect(deleted.status).toBe(200);

  await m.bought(buyer, "3p", 1);
  expect(await stepsOf(h.db, buyer.id)).toEqual([[top.id, 2, 1, "paid"]]);
  expect(await m.balance(top)).toBe(105);
  await h.checkLedger();
});

test("with no eligible user up the chain the whole cost goes to the system account", async () => {
  const idle = await m.member(); // never buys, so not eligible
  const buyer = await m.member(idle);
  const before = await systemBalance(h.db);
  await m.bought(buyer, "3p", 1);
  expect(await systemBalance(h.db)).toBe(before + 500n);
  expect(await stepsOf(h.db, buyer.id)).toEqual([[null, null, null, "system"]]);
  expect(await m.balance(buyer)).toBe(95);
  expect(await m.balance(idle)).toBe(100);
  await h.checkLedger();
});

test("unfreezing pays unfreezeCost to the receiver and restarts the level with 0 cycles and empty slots", async () => {
  const top = await m.member();
  const owner = await m.member(top);
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1);
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1);
  const topBefore = await m.balance(top);
  const ownerBefore = await m.balance(owner);

  const res = await m.unfreeze(owner, "3p", 1);
  expect([res.status, res.body]).toEqual([200, { msg: "Level unfrozen successfully!" }]);
  expect(await m.balance(owner)).toBe(ownerBefore - 2.5);
  expect(await m.balance(top)).toBe(topBefore + 2.5);
  const view = await m.matrix(owner, "3p", 1);
  expect([view.status, view.cycles, view.slots.some((s: any) => s.filled)]).toEqual(["active", 0, false]);
  expect((await m.matrix(top, "3p", 1)).earned).toBe(12.5); // slot 1 (owner), slot 2 (passed up), the unfreeze

  // Active again: the next buyer below lands in slot 1 and pays the owner.
  const next = await m.member(owner);
  await m.bought(next, "3p", 1);
  expect(await stepsOf(h.db, next.id)).toEqual([[owner.id, 1, 1, "paid"]]);
  await h.checkLedger();
});

test("a level whose cost is 0 is activated and placed without moving any money", async () => {
  const patched = await h.call("PATCH", "/api/programs/6p/levels/12", { token: h.adminToken, body: { cost: 0, unfreezeCost: 0 } });
  expect(patched.status).toBe(200);
  const buyer = await m.member(undefined, 0);
  // Stands in for buying levels 1 to 11 ($10,235), which this test is not about.
  await h.db.execute(sql`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth) SELECT id, '6p', 11, 'active', chain_id, depth FROM users WHERE id = ${buyer.id}`);
  const before = await h.call("GET", "/api/user/transactions", { token: buyer.token });
  await m.bought(buyer, "6p", 12);
  expect((await h.me(buyer.token)).packages["6p"].levels[11].status).toBe("active");
  expect(await stepsOf(h.db, buyer.id)).toEqual([[null, null, null, "system"]]);
  expect((await h.call("GET", "/api/user/transactions", { token: buyer.token })).body).toEqual(before.body);
  // Nothing moved, so nothing passed anyone by: the admin, who never buys, misses nothing.
  expect(await h.db.select().from(missedEarnings).where(eq(missedEarnings.buyerId, buyer.id))).toEqual([]);
  await h.checkLedger();
});

test("with the price the member was shown, a purchase or an unfreeze charges it or nothing (409 price_changed after an admin's edit); without it, the price of the moment, as before", async () => {
  const price = async (cost: number, unfreezeCost: number) =>
    expect((await h.call("PATCH", "/api/programs/3p/levels/1", { token: h.adminToken, body: { cost, unfreezeCost } })).status).toBe(200);
  const act = (who: { token: string }, action: "purchase" | "unfreeze", options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
    h.call("POST", `/api/user/packages/${action}/3p/1`, { token: who.token, ...options });
  const changed = { status: 409, body: { msg: "The price of this level has just changed. Nothing was charged: please check the new price and try again.", code: "price_changed" } };
  const top = await m.member();
  const owner = await m.member(top);
  await m.bought(top, "3p", 1);

  // The member was shown 5; an admin sets 7 before the click.
  await price(7, 3.5);
  const before = await m.balance(owner);
  expect(await act(owner, "purchase", { body: { expectedCost: 5 } })).toMatchObject(changed);
  expect(await m.balance(owner)).toBe(before);
  const held = async (who: { token: string }) => (await h.me(who.token)).packages["3p"].levels.filter((l: { status: string }) => l.status !== "locked");
  expect(await held(owner)).toEqual([]);
  // Shown the new price, the member buys at it.
  expect((await act(owner, "purchase", { body: { expectedCost: "7.00" } })).status).toBe(200);
  expect(await m.balance(owner)).toBe(before - 7);

  // Six partners fill the owner's matrix twice: the level freezes. The unfreeze was shown 3.50; it is now 4.
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1);
  await price(7, 4);
  const frozen = await m.balance(owner);
  expect(await act(owner, "unfreeze", { body: { expectedCost: 3.5 } })).toMatchObject(changed);
  expect(await m.balance(owner)).toBe(frozen);
  expect((await m.matrix(owner, "3p", 1)).status).toBe("frozen");
  expect((await act(owner, "unfreeze", { body: { expectedCost: 4 } })).status).toBe(200);
  expect(await m.balance(owner)).toBe(frozen - 4);

  // The earlier app's clients send no body, or an empty one under a JSON Content-Type: the price of the moment.
  const bare = await m.member(top);
  expect((await act(bare, "purchase")).status).toBe(200);
  const empty = await m.member(top);
  expect((await act(empty, "purchase", { rawBody: "", headers: { "content-type": "application/json" } })).status).toBe(200);
  // A body that is not JSON, or a price that is not an amount, is refused before anything is bought.
  const wrong = await m.member(top);
  expect(await act(wrong, "purchase", { rawBody: "{", headers: { "content-type": "application/json" } })).toMatchObject({ status: 400, body: { code: "bad_json" } });
  expect(await act(wrong, "purchase", { body: { expectedCost: "abc" } })).toMatchObject({ status: 400, body: { code: "validation" } });
  expect(await held(wrong)).toEqual([]);

  await price(5, 2.5);
  await h.checkLedger();
});
