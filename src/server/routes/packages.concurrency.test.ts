import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client";
import { inTransaction, pgCode } from "../../core/tx";
import { deleteUser } from "../../core/users";
import type { Program } from "../../db/schema";
import { onPostgres } from "../../testing/db";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { matrixHelpers, systemBalance } from "../../testing/matrix";
import { MatrixModel } from "../../testing/matrixModel";

// PGlite runs one connection, so races only exist on real Postgres:
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/server/routes/packages.concurrency.test.ts
describe.skipIf(!onPostgres)("purchases racing on Postgres", () => {
  let h: Harness;
  useMoneyHarness((made) => (h = made), { max: 20 });

  test("a member and their sponsor buying a level at once: whichever commits first, the other's payment follows from it", async () => {
    const m = matrixHelpers(h);
    let pastAnActiveSponsor = 0;
    for (let round = 0; round < 30; round++) {
      const top = await m.member(undefined, 50);
      await m.bought(top, "3p", 1);
      const sponsor = await m.member(top, 50);
      const buyer = await m.member(sponsor, 50);
      const answers = await Promise.all([m.buy(sponsor, "3p", 1), m.buy(buyer, "3p", 1)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const paid = rowsOf<{ from_account: string; to_account: string }>(
        await h.db.execute(sql`SELECT from_account, to_account FROM transfers WHERE kind = 'purchase' AND from_account IN (${sponsor.id}, ${buyer.id}) ORDER BY id`),
      );
      // The sponsor's purchase committed first: the buyer's receiver is the sponsor. (The buyer's
      // walk, made before that commit, found the top; it waited on the top's row, which the
      // sponsor's purchase was filling. Paying the top then put the buyer after the sponsor in the
      // top's slots and yet past them.)
      if (paid[0]!.from_account === sponsor.id && paid[1]!.to_account !== sponsor.id) pastAnActiveSponsor++;
    }
    expect(pastAnActiveSponsor).toBe(0);
    await h.checkLedger();
  });

  test("members deleted while a purchase records what passed them by get no missed earning and no notification", async () => {
    const m = matrixHelpers(h);
    /** `purchase` sent while the deletion of `userId` is under way (its rows locked, not committed). */
    async function whileDeleting(userId: string, purchase: () => Promise<{ status: number }>) {
      const release = Promise.withResolvers<void>();
      const started = Promise.withResolvers<void>();
      const deletion = inTransaction(h.db, async (tx) => {
        await deleteUser(tx, userId);
        started.resolve();
        await release.promise;
      });
      await started.promise;
      const answer = purchase();
      await Bun.sleep(300);
      release.resolve();
      await deletion;
      expect((await answer).status).toBe(200);
    }
    const recordsFor = async (buyerId: string, userId: string) => ({
      recorded: rowsOf(await h.db.execute(sql`SELECT reason FROM missed_earnings WHERE buyer_id = ${buyerId} AND user_id = ${userId}`)),
      // The buyer's name is in the notice (texts.missed).
      told: rowsOf(await h.db.execute(sql`SELECT n.id FROM notifications n, users b WHERE n.kind = 'missed' AND n.user_id = ${userId} AND b.id = ${buyerId} AND position(b.name in n.text) > 0`)),
    });
    const none = { recorded: [], told: [] };
    // The buyer's direct referrer, without the level (not_active).
    const referrer = await m.member(undefined, 0);
    const buyer = await m.member(referrer, 50);
    await whileDeleting(referrer.id, () => m.buy(buyer, "3p", 1));
    expect(await recordsFor(buyer.id, referrer.id)).toEqual(none);
    // A frozen member the walk goes past (frozen).
    const frozen = await m.member(undefined, 50);
    await m.bought(frozen, "3p", 1);
    await h.db.execute(sql`UPDATE user_levels SET status = 'frozen', cycles = 2 WHERE user_id = ${frozen.id} AND program = '3p' AND level = 1`);
    const between = await m.member(frozen, 50);
    await m.bought(between, "3p", 1);
    await h.db.execute(sql`UPDATE user_levels SET status = 'frozen', cycles = 2 WHERE user_id = ${between.id} AND program = '3p' AND level = 1`);
    const below = await m.member(between, 50);
    await whileDeleting(frozen.id, () => m.buy(below, "3p", 1));
    expect(await recordsFor(below.id, frozen.id)).toEqual(none);
    // The one not deleted is still told.
    expect((await recordsFor(below.id, between.id)).recorded).toEqual([{ reason: "frozen" }]);
    await h.checkLedger();
  });

  test("40 partners of one referrer buying 3P and 6P level 1 at the same moment fill the matrices as if one by one", async () => {
    const m = matrixHelpers(h);
    const admin = { token: h.adminToken };
    await h.fund(h.adminToken, 100);
    await m.bought(admin, "3p", 1); // the root: system
    await m.bought(admin, "6p", 1);
    const referrer = await m.member();
    await m.bought(referrer, "3p", 1); // admin's 3P slot 1: paid
    await m.bought(referrer, "6p", 1); // admin's 6P slot 1: passed up to system
    const buyers = [];
    for (let i = 0; i < 40; i++) buyers.push(await m.member(referrer, 10));
    const systemBefore = await systemBalance(h.db);

    const answers = await Promise.all(buyers.flatMap((b) => [m.buy(b, "3p", 1), m.buy(b, "6p", 1)]));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    // Whatever the order, one by one gives (rules in docs/rules.md#slots):
    // 3P: referrer paid by its entrants 1, 2, 4, 5; entrants 3 and 6 pass up to the admin (slots 2
    //     and 3), and 6 freezes it. Then the admin: slots 1, 2 paid, 3 frozen; the rest to system.
    // 6P: referrer entrants 1 and 7 pass up, 2-5 and 8-11 paid, 6 and 12 pass up; frozen after
    //     12. The admin gets those 4 in slots 2-5, then 6 completes, 1 passes up, 2-5 paid, 6
    //     freezes; the rest to system.
    const state = async (who: { token: string }, program: string) => {
      const v = await m.matrix(who, program, 1);
      return [v.status, v.cycles, v.slots.filter((s: { filled: boolean }) => s.filled).length, v.earned];
    };
    // A frozen level shows its last completed cycle (docs/rules.md#lifetime-cycles): every slot filled.
    expect(await state(referrer, "3p")).toEqual(["frozen", 2, 3, 20]);
    expect(await state(admin, "3p")).toEqual(["frozen", 2, 3, 20]); // 5 from the referrer + 3 entrants
    expect(await state(referrer, "6p")).toEqual(["frozen", 2, 6, 40]);
    expect(await state(admin, "6p")).toEqual(["frozen", 2, 6, 40]);
    // 80 purchases of $5: $20 + $40 to the referrer, $15 + $40 to the admin, the rest to system.
    expect(await systemBalance(h.db)).toBe(systemBefore + (400n - 115n) * 100n);

    const outcomes = rowsOf<{ program: string; outcome: string; n: number }>(
      await h.db.execute(sql`SELECT program, outcome, count(*)::int AS n FROM placements
        WHERE buyer_id IN (SELECT id FROM users WHERE referrer_id = ${referrer.id}) GROUP BY 1, 2 ORDER BY 1, 2`),
    );
    expect(outcomes.map((o) => [o.program, o.outcome, o.n])).toEqual([
      ["3p", "paid", 7],
      ["3p", "pass_up", 4],
      ["3p", "system", 33],
      ["6p", "paid", 16],
      ["6p", "pass_up", 7],
      ["6p", "system", 24],
    ]);
    for (const b of buyers.slice(0, 3)) expect(await m.balance(b)).toBe(0);
    await h.checkLedger();
  });

  test("purchases under every level of a tree, all at once and while sign-ups move chains, end in the state of a one-by-one replay in commit order", async () => {
    await withHarness(async (h2) => {
      const m = matrixHelpers(h2);
      // 13 users with both level 1 matrices open (bought top-down, one by one), then 30 new
      // partners spread over all of them buy both programs at once: the walks overlap at every depth.
      const top = await m.member(undefined, 20);
      const middle = [await m.member(top, 20), await m.member(top, 20), await m.member(top, 20)];
      const bottom: Awaited<ReturnType<typeof m.member>>[] = [];
      for (const parent of middle) for (let i = 0; i < 3; i++) bottom.push(await m.member(parent, 20));
      const nodes = [top, ...middle, ...bottom];
      for (const n of nodes) for (const p of ["3p", "6p"]) await m.bought(n, p, 1);
      const leaves = [];
      for (let i = 0; i < 30; i++) leaves.push(await m.member(nodes[i % nodes.length], 10));

      // Meanwhile a line of sign-ups grows under the last middle user, until its branch takes the
      // chain over at every level above it (chains.ts): walks run while chains move under them.
      const chainOf = async (u: { myReferralId: string }) =>
        rowsOf<{ chain_id: string }>(await h2.db.execute(sql`SELECT chain_id FROM users WHERE referral_id = ${u.myReferralId}`))[0]!.chain_id;
      const topChain = await chainOf(top);
      expect(await chainOf(middle[2]!)).not.toBe(topChain);
      const growLine = async () => {
        for (let parent = bottom.at(-1)!, i = 0; i < 30; i++) parent = await h2.signUp({ referralId: parent.myReferralId });
      };
      const [answers] = await Promise.all([Promise.all(leaves.flatMap((b) => [m.buy(b, "3p", 1), m.buy(b, "6p", 1)])), growLine()]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(await chainOf(middle[2]!)).toBe(topChain);

      // Replay every purchase in transfer id order. A transaction that waits for a row another
      // holds inserts its transfer after the other commits, so this order is a valid one-by-one
      // order; nothing skipped by a walk could change meanwhile (no unfreezes, no new openings above).
      const users = rowsOf<{ id: string; referrer_id: string | null }>(await h2.db.execute(sql`SELECT id, referrer_id FROM users`));
      const model = new MatrixModel((program, level) => ({ cost: 500n * 2n ** BigInt(level - 1), unfreezeCost: 0n }));
      for (const u of users) {
        model.addUser(u.id, u.referrer_id);
        model.move("external", u.id, 1_000_000n, "deposit");
      }
      const purchases = rowsOf<{ id: string; from_account: string; to_account: string; program: Program; level: number }>(
        await h2.db.execute(sql`SELECT t.id::text AS id, from_account, to_account, program, level FROM transfers t WHERE kind = 'purchase' ORDER BY t.id`),
      );
      expect(purchases).toHaveLength(2 * (nodes.length + leaves.length));
      const passedBy = new Set<string>();
      for (const t of purchases) {
        const expected = model.purchase(t.from_account, t.program, Number(t.level));
        const steps = rowsOf<{ owner_id: string | null; slot: number | null; cycle: number | null; outcome: string }>(
          await h2.db.execute(sql`SELECT owner_id, slot, cycle, outcome FROM placements WHERE transfer_id = ${t.id} ORDER BY id`),
        );
        // Missed earnings too: a walk that read a level before another purchase froze it locked
        // that row, waited, and then passed it by, as the replay does.
        const missed = rowsOf<{ user_id: string; buyer_id: string; program: Program; level: number; amount: string; reason: "frozen" | "not_active" }>(
          await h2.db.execute(sql`SELECT user_id, buyer_id, program, level, amount::text AS amount, reason FROM missed_earnings
            WHERE buyer_id = ${t.from_account} AND program = ${t.program} AND level = ${t.level} ORDER BY id`),
        );
        expect({
          payee: t.to_account,
          steps: steps.map((s) => [s.owner_id, s.slot, s.cycle, s.outcome]),
          missed: missed.map((r) => [r.user_id, r.buyer_id, r.program, Number(r.level), BigInt(r.amount), r.reason]),
        }).toEqual({
          payee: "transfers" in expected ? expected.transfers[0]![1] : "refused",
          steps: "steps" in expected ? expected.steps : [],
          missed: "missed" in expected ? expected.missed : [],
        });
        for (const r of missed) passedBy.add(r.reason);
      }
      const rows = rowsOf<{ user_id: string; program: string; level: number; status: string; cycles: number; slots: string[] }>(
        await h2.db.execute(sql`SELECT user_id, program, level, status, cycles, slots FROM user_levels`),
      );
      expect(Object.fromEntries(rows.map((r) => [`${r.user_id}|${r.program}|${r.level}`, { status: r.status, cycles: r.cycles, slots: r.slots }]))).toEqual(
        Object.fromEntries(model.levels),
      );
      expect(rows.some((r) => r.status === "frozen")).toBe(true);
      // Purchases passed frozen levels by while others froze them, and the top's own purchases
      // passed the admin (who never buys) by as a referrer without the level.
      expect([...passedBy].sort()).toEqual(["frozen", "not_active"]);
    }, { max: 20 });
  });
  // docs/rules.md#lock-order: the key, the buyer's rows, then the receiver's; one statement
  // (the activation) takes all three, and its data dependencies are what order them.
  test("a purchase waiting for its receiver's row has already reserved its key and inserted the buyer's level row", async () => {
    const m = matrixHelpers(h);
    const referrer = await m.member();
    await m.bought(referrer, "3p", 1);
    const buyer = await m.member(referrer, 10);
    const [place] = rowsOf<{ chain_id: string; depth: number }>(await h.db.execute(sql`SELECT chain_id, depth FROM users WHERE id = ${buyer.id}`));
    /** Runs `statement` in a transaction of its own that gives up after 300 ms of waiting on a lock, and rolls it back: the error, or null. */
    const probe = async (statement: ReturnType<typeof sql>) => {
      const undo = new Error("rolled back");
      try {
        await h.db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL lock_timeout = '300ms'`);
          await tx.execute(statement);
          throw undo;
        });
      } catch (error) {
        return error === undo ? null : error;
      }
      return null;
    };

    const held = Promise.withResolvers<void>();
    const holding = Promise.withResolvers<void>();
    const holder = h.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM user_levels WHERE user_id = ${referrer.id} AND program = '3p' AND level = 1 FOR UPDATE`);
      holding.resolve();
      await held.promise;
    });
    await holding.promise;
    const purchase = h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, headers: { "Idempotency-Key": "ordered" } });
    // Until the purchase's statement waits on a row lock: the receiver's, the only one held.
    for (let tries = 0; ; tries++) {
      const [waiting] = rowsOf<{ n: number }>(
        await h.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%key_reserved%'`),
      );
      if (waiting!.n === 1) break;
      if (tries > 200) throw new Error("the purchase never waited for its receiver's row");
      await Bun.sleep(10);
    }
    // The buyer's level row and the key's row are written already: inserting either waits on them.
    const level = await probe(sql`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
      VALUES (${buyer.id}, '3p', 1, 'active', ${place!.chain_id}, ${place!.depth}) ON CONFLICT DO NOTHING`);
    const key = await probe(sql`INSERT INTO idempotency_keys (user_id, key, request_hash, status, body)
      VALUES (${buyer.id}, 'ordered', 'probe', 0, '') ON CONFLICT DO NOTHING`);
    held.resolve();
    await holder;
    expect(pgCode(level)).toBe("55P03");
    expect(pgCode(key)).toBe("55P03");
    expect(await purchase).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect(await m.balance(buyer)).toBe(5);
    expect(await m.balance(referrer)).toBe(100 - 5 + 5);
  });
});
