import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTxId, TRON_SENDER } from "../../testing/chainIds";

let h: Harness;
useMoneyHarness((made) => (h = made));

const audit = async (page = 1) => (await h.call("GET", `/api/admin/audit?page=${page}`, { token: h.adminToken })).body;

describe("the admin audit trail", () => {
  test("every admin action is recorded with the admin, the time, the target and the values before and after", async () => {
    const user = await h.signUp({ name: "Audited" });
    const before = Date.now();
    const transactionId = randomTxId();
    await h.call("POST", "/api/user/deposit", { token: user.token, body: { address: TRON_SENDER, transactionId, amount: 20 } });
    const [dep] = (await h.call("GET", `/api/admin/deposits?status=pending&search=${transactionId}`, { token: h.adminToken })).body;
    await h.call("PUT", `/api/admin/deposits/${dep._id}`, { token: h.adminToken, body: { status: "accepted" } });
    await h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: 10 } });
    const [wd] = (await h.call("GET", "/api/admin/withdrawals?status=pending", { token: h.adminToken })).body;
    await h.call("PUT", `/api/admin/withdrawals/${wd._id}`, { token: h.adminToken, body: { status: "accepted" } });
    await h.call("PATCH", "/api/programs/3p/levels/2", { token: h.adminToken, body: { cost: 12.5, unfreezeCost: "6.25" } });
    await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount: 3 } });
    await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken });

    const { entries, totalPages } = await audit();
    expect(totalPages).toBe(1);
    expect(entries.map((e: any) => [e.action, e.targetType, e.targetId, e.before, e.after])).toEqual([
      ["user_delete", "user", user.id, { name: "Audited", email: user.email, deleted: false }, { deleted: true, deletedAt: expect.any(String) }],
      ["admin_gift", "user", user.id, null, { amount: "3.00" }],
      ["level_price", "level", "3p/2", { cost: "10.00", unfreezeCost: "5.00" }, { cost: "12.50", unfreezeCost: "6.25" }],
      ["withdrawal_decision", "withdrawal", wd._id, { status: "pending", userId: user.id, amount: "10.00" }, { status: "accepted", fee: "0.80" }],
      ["deposit_decision", "deposit", dep._id, { status: "pending", userId: user.id, amount: "20.00" }, { status: "accepted" }],
    ]);
    for (const e of entries) {
      expect(e.adminEmail).toBe("admin@test.local");
      expect(new Date(e.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  test("edits of one price made at once are listed in the order they were made: each one's before is the after of the one below it", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => h.call("PATCH", "/api/programs/6p/levels/12", { token: h.adminToken, body: { cost: 100 + i, unfreezeCost: 50 + i } })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const entries: { targetId: string; createdAt: string; before: unknown; after: unknown }[] = [];
    for (let page = 1; entries.length < 30; page++) entries.push(...(await audit(page)).entries.filter((e: { targetId: string }) => e.targetId === "6p/12"));
    for (let i = 0; i + 1 < entries.length; i++) {
      expect({ i, before: entries[i]!.before }).toEqual({ i, before: entries[i + 1]!.after });
      // Dated when made: newest first by time as well.
      expect(Date.parse(entries[i]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(entries[i + 1]!.createdAt));
    }
  });

  test("a refused admin action leaves no record", async () => {
    const count = (await audit()).entries.length;
    const res = await h.call("PUT", "/api/admin/deposits/no-such-id", { token: h.adminToken, body: { status: "accepted" } });
    expect(res.status).toBe(404);
    expect((await audit()).entries.length).toBe(count);
  });

  test("GET /api/admin/audit is for admins only", async () => {
    const user = await h.signUp();
    expect((await h.call("GET", "/api/admin/audit", { token: user.token })).status).toBe(403);
    expect((await h.call("GET", "/api/admin/audit")).status).toBe(401);
    expect((await h.call("GET", "/api/admin/audit?page=0", { token: h.adminToken })).status).toBe(400);
  });

  test("records are never edited: the database refuses updates and deletes", async () => {
    await h.call("PATCH", "/api/programs/6p/levels/1", { token: h.adminToken, body: { cost: 5, unfreezeCost: 2.5 } });
    const attempt = async (statement: ReturnType<typeof sql>) => {
      try {
        await h.db.execute(statement);
        return "changed";
      } catch (error) {
        return String((error as { cause?: Error }).cause?.message ?? error);
      }
    };
    expect(await attempt(sql`UPDATE admin_audit SET action = 'admin_gift'`)).toContain("never edited or deleted");
    expect(await attempt(sql`DELETE FROM admin_audit`)).toContain("never edited or deleted");
    expect((await audit()).entries.length).toBeGreaterThan(0);
  });
});
