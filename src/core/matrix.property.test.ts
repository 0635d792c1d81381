import { expect, test } from "bun:test";
import { asc, eq, gt, sql } from "drizzle-orm";
import fc from "fast-check";
import { rowsOf, type Database } from "../db/client";
import { missedEarnings, placements, transfers, userLevels, users, type Program } from "../db/schema";
import { SLOTS_PER_LEVEL } from "../shared/constants";
import { expectLedgerInvariants, expectTreeInvariants } from "../testing/invariants";
import { MatrixModel, type ModelMissed, type ModelResult } from "../testing/matrixModel";
import { useDatabase } from "../testing/useHarness";
import { Refusal } from "./errors";
import { EXTERNAL, transfer } from "./ledger";
import { defaultLevels } from "./levels";
import { previewPurchase, previewUnfreeze, purchaseLevel, type LevelPreview, unfreezeLevel } from "./matrix";
import { matrixOf, SYSTEM_NAME } from "./matrixView";
import { inTransaction } from "./tx";
import { adminIdOf } from "../testing/domain";
import { adminReferralId, deleteUser, signUp } from "./users";
import { requestWithdrawal, sendGift } from "./wallet";

// Core functions are called directly (no HTTP) to keep ~1,000 operations within seconds. Each
// run grows its own branch under the admin, who never buys: a walk that reaches the admin pays
// `system`, so runs cannot affect each other's matrices, and the ledger checks stay global.
let database: Database;
let rootReferral: string;
let adminId: string;
useDatabase(async (made) => {
  database = made;
  rootReferral = await adminReferralId(made.db);
  adminId = await adminIdOf(made.db);
});

const prices = new Map(defaultLevels().map((l) => [`${l.program}|${l.level}`, l]));
const priceOf = (program: Program, level: number) => prices.get(`${program}|${level}`)!;

const program = fc.constantFrom<Program>("3p", "6p");
// A referrer among the run's users (1 is the founder; leaning on it fills its matrices up to
// freezing), or 0: the admin.
const parent = fc.oneof({ weight: 7, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.nat() });
const op = fc.oneof(
  // A new user signs up, is funded, and buys level 1 of some programs.
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant("join" as const),
      parent,
      cents: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.integer({ min: 500, max: 8000 }) }),
      programs: fc.constantFrom<Program[]>(["3p", "6p"], ["3p", "6p"], ["3p"], ["3p"], ["6p"], []),
    }),
  },
  // level null: the user's lowest locked level, as a real user would buy; a number: any level.
  { weight: 5, arbitrary: fc.record({ type: fc.constant("buy" as const), user: fc.nat(), program, level: fc.option(fc.constantFrom(1, 2, 3), { nil: null, freq: 4 }) }) },
  // Unfreezes a level the model knows is frozen (pick-th of them), or any level when none is.
  { weight: 3, arbitrary: fc.record({ type: fc.constant("unfreeze" as const), user: fc.nat(), pick: fc.nat(), program, level: fc.constantFrom(1, 1, 2) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("gift" as const), user: fc.nat(), to: fc.nat(), cents: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("withdraw" as const), user: fc.nat(), cents: fc.integer({ min: 100, max: 5000 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("delete" as const), user: fc.nat() }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

let run = 0;
/** What the runs exercised, so a generator that stops reaching a rule fails loudly. */
const seen: Record<string, number> = {};
const count = (key: string) => (seen[key] = (seen[key] ?? 0) + 1);

/** What an operation ended in: its value, or the refusal (code and sentence). */
async function attempt<T>(work: () => Promise<T>): Promise<{ value: T } | { code: string; msg: string }> {
  try {
    return { value: await work() };
  } catch (error) {
    if (error instanceof Refusal) return { code: error.code, msg: error.msg };
    throw error;
  }
}

/** The newest transfer, placement and missed-earning ids, to see what one operation added. */
async function lastIds() {
  const [row] = rowsOf<{ t: string | null; p: string | null; m: string | null }>(
    await database.db.execute(
      sql`SELECT (SELECT max(id) FROM transfers)::text AS t, (SELECT max(id) FROM placements)::text AS p, (SELECT max(id) FROM missed_earnings)::text AS m`,
    ),
  );
  return { transfer: BigInt(row?.t ?? 0), placement: BigInt(row?.p ?? 0), missed: BigInt(row?.m ?? 0) };
}

/** Names of the users, for what the matrix view shows by name (`to`). */
const names = new Map<string, string>();
const nameOf = (account: string) => (account === "system" ? SYSTEM_NAME : names.get(account)!);

/**
 * The slot of `buyer` in the matrix of `owner` as the member sees it (GET /api/user/matrix, with
 * ?cycle= the lifetime cycle the model puts it in) against the model: who, outcome, amount, to.
 */
async function expectSlotAsModel(model: MatrixModel, owner: string, buyer: string, program: Program, level: number) {
  const history = model.history(owner, program, level);
  const i = history.findIndex((p) => p.buyer === buyer);
  expect(i).toBeGreaterThanOrEqual(0);
  const size = SLOTS_PER_LEVEL[program];
  const view = await matrixOf(database.db, owner, program, level, Math.floor(i / size) + 1);
  const slot = view.slots[i % size]!;
  const expected = history[i]!;
  expect([slot.user?.id, slot.outcome, slot.amount, slot.to?.name ?? null]).toEqual([
    expected.buyer,
    expected.outcome,
    expected.amount,
    expected.to === null ? null : nameOf(expected.to),
  ]);
}

/**
 * Runs one operation on the database and on the model, then compares: the refusal (or
 * success), the transfers, placements and missed earnings it added, the slots it filled as the
 * matrix view shows them, the ledger invariants and the tree's chains.
 */
async function step<T>(
  label: string,
  model: MatrixModel,
  work: () => Promise<T>,
  expectOf: () => ModelResult,
  purchase?: { buyer: string; cost: bigint; program: Program; level: number },
) {
  const { db } = database;
  const since = await lastIds();
  const outcome = await attempt(work);
  const actual = "value" in outcome ? "ok" : outcome.msg;
  const expected = expectOf();
  expect(`${label}: ${actual}`).toBe(`${label}: ${"refused" in expected ? expected.refused : "ok"}`);
  count(`${label}:${actual}`);

  const moved = await db.select().from(transfers).where(gt(transfers.id, since.transfer)).orderBy(asc(transfers.id));
  const placed = await db.select().from(placements).where(gt(placements.id, since.placement)).orderBy(asc(placements.id));
  const missed = await db.select().from(missedEarnings).where(gt(missedEarnings.id, since.missed)).orderBy(asc(missedEarnings.id));
  expect(moved.map((t) => [t.fromAccount, t.toAccount, t.amount, t.kind])).toEqual("transfers" in expected ? expected.transfers : []);
  expect(placed.map((p) => [p.ownerId, p.slot, p.cycle, p.outcome])).toEqual("steps" in expected ? expected.steps : []);
  expect(missed.map((m): ModelMissed => [m.userId, m.buyerId, m.program, m.level, m.amount, m.reason])).toEqual(
    "missed" in expected ? expected.missed : [],
  );
  for (const m of missed) count(`missed:${m.reason}`);
  if (purchase && actual === "ok") {
    // One purchase moves exactly `cost` from the buyer to exactly one account.
    expect(moved.map((t) => [t.fromAccount, t.amount])).toEqual([[purchase.buyer, purchase.cost]]);
    for (const p of placed) {
      count(p.outcome);
      expect(p.amount).toBe(purchase.cost);
      if (p.ownerId) await expectSlotAsModel(model, p.ownerId, p.buyerId, purchase.program, purchase.level);
    }
  }
  await expectLedgerInvariants(db);
  await expectTreeInvariants(db);
  return outcome;
}

/**
 * A preview read before the operation against what the operation then did: the same refusal
 * (but for the balance, which a preview does not judge), else the same matrix, slot, outcome and
 * receiver. `did` is null when the operation was refused.
 */
function expectPreviewMatches(
  preview: { value: LevelPreview } | { code: string },
  did: { code: string } | { value: { payee: string; steps?: { ownerId: string | null; slot: number | null; outcome: string }[] } },
) {
  if ("code" in did) {
    if (did.code === "insufficient_balance") return expect("value" in preview).toBe(true);
    return expect("code" in preview ? preview.code : "ok").toBe(did.code);
  }
  expect("value" in preview).toBe(true);
  if (!("value" in preview)) return;
  count(`preview:${preview.value.action}`);
  const first = did.value.steps?.[0];
  expect({
    receiver: preview.value.receiver?.id ?? "system",
    matrix: preview.value.matrix && ([preview.value.matrix.owner.id, preview.value.matrix.slot, preview.value.matrix.outcome] as unknown[]),
  }).toEqual({
    receiver: did.value.payee,
    matrix: first?.ownerId ? [first.ownerId, first.slot, first.outcome === "paid" ? "paid" : "passed_up"] : null,
  });
}

test("random trees, purchases, unfreezes, gifts and deletions keep the ledger whole and follow the rules", async () => {
  const { db } = database;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 30, maxLength: 50, size: "max" }), async (ops) => {
      run++;
      const model = new MatrixModel(priceOf);
      // The admin is in the model as the root, who never buys: users under it are partners of a
      // referrer without the level (not_active), and walks past it reach system.
      model.addUser(adminId, null);
      const ids: string[] = [];
      const emails: string[] = [];
      /** The missed earnings the model gave each (user, program, level), summed. */
      const missedTotals = new Map<string, bigint>();
      const addMissed = (result: ModelResult) => {
        if ("missed" in result) for (const [u, , p, l, amount] of result.missed) missedTotals.set(`${u}|${p}|${l}`, (missedTotals.get(`${u}|${p}|${l}`) ?? 0n) + amount);
        return result;
      };

      async function buy(user: string, p: Program, level: number) {
        const preview = await attempt(() => previewPurchase(db, user, p, level));
        const did = await step(
          `buy ${p}/${level}`,
          model,
          () => inTransaction(db, (tx) => purchaseLevel(tx, user, p, level)),
          () => addMissed(model.purchase(user, p, level)),
          { buyer: user, cost: priceOf(p, level).cost, program: p, level },
        );
        expectPreviewMatches(preview, did);
      }

      async function join(o: Extract<Op, { type: "join" }>) {
        const pick = o.parent % (ids.length + 1); // 0: the admin, else user pick-1
        const referrer = pick === 0 ? null : ids[pick - 1]!;
        if (referrer && model.deleted.has(referrer)) return; // sign-up under a deleted user is refused
        const [ref] = referrer ? await db.select({ r: users.referralId }).from(users).where(eq(users.id, referrer)) : [{ r: rootReferral }];
        const email = `r${run}u${ids.length}@prop.test`;
        const name = `R${run}U${ids.length}`;
        // signUp: the registration, then the chain takeovers it calls for (chains.ts).
        const { id } = await signUp(db, { name, email, passwordHash: "x", referralId: ref!.r });
        model.addUser(id, referrer ?? adminId);
        names.set(id, name);
        ids.push(id);
        emails.push(email);
        const amount = BigInt(o.cents);
        if (amount > 0n) {
          // Funding is setup, not under test; the next step's checks cover it.
          await inTransaction(db, (tx) => transfer(tx, { from: EXTERNAL, to: id, amount, kind: "deposit" }));
          model.move(EXTERNAL, id, amount, "deposit");
        }
        for (const p of o.programs) await buy(id, p, 1);
      }

      // A founder with both level 1 matrices open, so joins under it have somewhere to go.
      await join({ type: "join", parent: 0, cents: 10_000, programs: ["3p", "6p"] });
      // A chain takeover (chains.ts) early in every run, so later walks cross a moved chain: the
      // founder's first partner stays alone while the second's team grows past twice its size.
      await join({ type: "join", parent: 1, cents: 2000, programs: ["3p"] }); // ids[1], the heir
      await join({ type: "join", parent: 1, cents: 2000, programs: ["3p"] }); // ids[2]
      await join({ type: "join", parent: 3, cents: 2000, programs: [] }); // under ids[2]
      await join({ type: "join", parent: 3, cents: 2000, programs: ["6p"] }); // under ids[2]: takeover
      // Four more partners fill the founder's 3P matrix twice over (ids[1] and ids[2] took slots 1
      // and 2): it freezes, so later walks from below pass it by (missed earnings) until an
      // unfreeze restarts it, and its cycles are browsed across the unfreeze.
      for (let i = 0; i < 4; i++) await join({ type: "join", parent: 1, cents: 1000, programs: ["3p"] });
      expect(model.level(ids[0]!, "3p", 1)?.status).toBe("frozen");
      await join({ type: "join", parent: 1, cents: 1000, programs: ["3p"] }); // passes the founder by
      for (const o of ops) {
        if (o.type === "join") {
          await join(o);
          continue;
        }
        if (ids.length === 0) continue;
        const user = ids[o.user % ids.length]!;
        if (model.deleted.has(user)) continue; // a deleted user cannot sign in
        switch (o.type) {
          case "buy": {
            let level = o.level ?? 1;
            while (o.level === null && level < 3 && model.level(user, o.program, level)) level++;
            await buy(user, o.program, level);
            break;
          }
          case "unfreeze": {
            const frozen = [...model.levels].filter(([key, l]) => l.status === "frozen" && !model.deleted.has(key.split("|")[0]!));
            const [who, p, level] = frozen.length ? frozen[o.pick % frozen.length]![0].split("|") : [user, o.program, String(o.level)];
            const [u, prog, lvl] = [who!, p as Program, Number(level)];
            const preview = await attempt(() => previewUnfreeze(db, u, prog, lvl));
            const did = await step(
              "unfreeze",
              model,
              () => inTransaction(db, (tx) => unfreezeLevel(tx, u, prog, lvl)),
              () => addMissed(model.unfreeze(u, prog, lvl)),
            );
            expectPreviewMatches(preview, did);
            break;
          }
          case "gift": {
            const to = o.to % ids.length;
            const input = { recipientEmail: emails[to]!, amount: BigInt(o.cents) };
            await step("gift", model, () => inTransaction(db, (tx) => sendGift(tx, user, input)), () => model.gift(user, ids[to]!, input.amount));
            break;
          }
          case "withdraw": {
            const input = { accountType: "USDT TRC20" as const, accountNumber: "TAcN9gFvXZAxsWQQzWWbydBmscBHnEi5nZ", amount: BigInt(o.cents) };
            await step("withdraw", model, () => inTransaction(db, (tx) => requestWithdrawal(tx, user, input)), () => model.holdWithdrawal(user, input.amount));
            break;
          }
          case "delete": {
            // Never the founder: its open matrices are what the other operations build on.
            // Preferably someone with a downline, so later payments have to pass through them.
            const others = ids.slice(1);
            const referrers = others.filter((id) => !model.deleted.has(id) && ids.some((c) => model.referrer.get(c) === id));
            const pool = referrers.length > 0 ? referrers : others;
            if (pool.length === 0) break;
            const victim = pool[o.user % pool.length]!;
            await step("delete", model, () => inTransaction(db, (tx) => deleteUser(tx, victim)), () => model.delete(victim));
            break;
          }
        }
      }

      // Final states: every level row of this run's users equals the model's, and every cycle of
      // every matrix, browsed by its lifetime number, shows the slots the model took, with the
      // level's missed total.
      for (const id of ids) {
        const rows = await db.select().from(userLevels).where(eq(userLevels.userId, id));
        const actual = Object.fromEntries(rows.map((r) => [`${r.userId}|${r.program}|${r.level}`, { status: r.status, cycles: r.cycles, slots: r.slots }]));
        expect(actual).toEqual(Object.fromEntries([...model.levels].filter(([k]) => k.startsWith(`${id}|`))));
        for (const r of rows) {
          const size = SLOTS_PER_LEVEL[r.program];
          const history = model.history(id, r.program, r.level);
          const completed = Math.floor(history.length / size);
          const current = await matrixOf(db, id, r.program, r.level);
          expect([current.cycle, current.cyclesCompleted, current.missed]).toEqual([
            r.status === "active" ? completed + 1 : completed,
            completed,
            missedTotals.get(`${id}|${r.program}|${r.level}`) ?? 0n,
          ]);
          if (completed > 1) count("browsed an earlier cycle");
          for (let cycle = 1; cycle <= current.cycle; cycle++) {
            const view = cycle === current.cycle ? current : await matrixOf(db, id, r.program, r.level, cycle);
            const shown = history.slice((cycle - 1) * size, cycle * size);
            expect(view.slots.map((s) => (s.filled ? [s.user?.id, s.outcome, s.amount, s.to?.name ?? null] : null))).toEqual(
              Array.from({ length: size }, (_, i) => {
                const p = shown[i];
                return p ? [p.buyer, p.outcome, p.amount, p.to === null ? null : nameOf(p.to)] : null;
              }),
            );
          }
        }
      }
    }),
    // No shrinking: each attempt replays a whole scenario on the database (minutes in all), and
    // the failing step's label already says where the database and the model diverged.
    { numRuns: 6, endOnFailure: true },
  );
  // Guards against a generator that silently stops reaching the rules (these are near certain
  // with the weights above; freezes and unfreezes happen in most runs but are not asserted).
  expect([seen.paid, seen.pass_up, seen.system, seen["missed:frozen"], seen["missed:not_active"], seen["preview:purchase"]].every((n) => (n ?? 0) > 0)).toBe(true);
  // ...and that the chain takeovers (chains.ts) happened, so walks were checked across moved chains.
  const [takeovers] = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      SELECT count(*)::int AS n FROM users u JOIN users p ON p.id = u.referrer_id
      WHERE u.chain_id = p.chain_id
        AND EXISTS (SELECT 1 FROM users s WHERE s.referrer_id = p.id AND (s.created_at, s.id) < (u.created_at, u.id))`),
  );
  expect(takeovers!.n).toBeGreaterThan(0);
}, 180_000); // ~15 s on an idle machine; room for a loaded one
