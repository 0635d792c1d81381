import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { missedEarnings, placements, transfers, userLevels, users, type Program } from "../db/schema";
import { LEVELS_PER_PROGRAM, PROGRAMS, SLOTS_PER_LEVEL, type LevelStatus, type SlotOutcome } from "../shared/constants";
import type { Cents } from "../shared/money";
import { refuse } from "./errors";
import { getLevel } from "./levels";
import { missedAt } from "./missed";

export interface MatrixSlot {
  slot: number;
  filled: boolean;
  user: { id: string; name: string } | null;
  filledAt: Date | null;
  outcome: SlotOutcome | null;
  amount: Cents | null;
  /** A pass-up: the account finally paid for that purchase ("System" when no one above was eligible). */
  to: { name: string } | null;
}

/** What a level has paid its owner: the purchases and unfreezes paid to them at it (passed up to them included). */
const earnedBy = (userId: string) => and(eq(transfers.toAccount, userId), inArray(transfers.kind, ["purchase", "unfreeze"]));

/**
 * The cycle a matrix shows first, counted over the level's whole life. Active: the cycle being
 * filled. Frozen: the last one completed. Locked: the first, empty.
 */
const currentCycle = (status: LevelStatus | undefined, cyclesCompleted: number) => (status === "active" ? cyclesCompleted + 1 : Math.max(cyclesCompleted, 1));

/** How the account that took the money is named to members when it is the platform. */
export const SYSTEM_NAME = "System";

/**
 * One user's matrix at (program, level) for one cycle (docs/rules.md#lifetime-cycles): its
 * state, who filled each slot of that cycle, when, and what happened to the money there, with
 * what the user earned and missed at the level (money in cents). `cycle` counts over the level's
 * whole life (1 is its first cycle ever); absent, the current one. A cycle past the current one
 * is refused (cycle_not_found).
 *
 * Read in one snapshot (a read-only REPEATABLE READ transaction), so the level row, the count of
 * placements and the cycle's slots agree even while purchases land in this matrix.
 */
export function matrixOf(db: Db, userId: string, program: Program, level: number, cycle?: number) {
  return db.transaction((tx) => readMatrix(tx, userId, program, level, cycle), { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function readMatrix(tx: Tx, userId: string, program: Program, level: number, cycle?: number) {
  const { unfreezeCost } = await getLevel(tx, program, level); // an unknown level answers 404
  const slotCount = SLOTS_PER_LEVEL[program];
  const mine = and(eq(placements.ownerId, userId), eq(placements.program, program), eq(placements.level, level));

  const [row] = await tx
    .select({ status: userLevels.status, cycles: userLevels.cycles })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)));

  // Every slot ever taken in this matrix is one placement (placements_owner_order_idx), and a
  // level freezes only when a cycle completes, so each completed cycle is exactly slotCount
  // placements in id order, whatever unfreezes came between: the n-th placement is slot
  // (n mod slotCount) + 1 of lifetime cycle floor(n / slotCount) + 1.
  const [taken] = await tx.select({ n: count() }).from(placements).where(mine);
  const cyclesCompleted = Math.floor((taken?.n ?? 0) / slotCount);
  const current = currentCycle(row?.status, cyclesCompleted);
  const shown = cycle ?? current;
  if (shown > current) return refuse("cycle_not_found");

  const placed = await tx
    .select({
      buyerId: placements.buyerId,
      name: users.name,
      createdAt: placements.createdAt,
      outcome: placements.outcome,
      amount: placements.amount,
    })
    .from(placements)
    .innerJoin(users, eq(users.id, placements.buyerId))
    .where(mine)
    .orderBy(asc(placements.id))
    .limit(slotCount)
    .offset((shown - 1) * slotCount);

  // Where each passed-up payment ended: the one step of the same purchase (a buyer buys a level
  // once) that paid someone or `system` (placements_purchase_idx).
  const passedUp = placed.filter((p) => p.outcome === "pass_up").map((p) => p.buyerId);
  const ends = passedUp.length
    ? await tx
        .select({ buyerId: placements.buyerId, name: users.name })
        .from(placements)
        .leftJoin(users, eq(users.id, placements.ownerId))
        .where(
          and(
            inArray(placements.buyerId, passedUp),
            eq(placements.program, program),
            eq(placements.level, level),
            inArray(placements.outcome, ["paid", "system"]),
          ),
        )
    : [];
  const paidTo = new Map(ends.map((e) => [e.buyerId, e.name ?? SYSTEM_NAME]));

  const [earned] = await tx
    .select({ cents: sql<string>`coalesce(sum(${transfers.amount}), 0)::text` })
    .from(transfers)
    .where(and(earnedBy(userId), eq(transfers.program, program), eq(transfers.level, level)));

  const slots: MatrixSlot[] = Array.from({ length: slotCount }, (_, i) => {
    const p = placed[i];
    if (!p) return { slot: i + 1, filled: false, user: null, filledAt: null, outcome: null, amount: null, to: null };
    const passed = p.outcome === "pass_up";
    return {
      slot: i + 1,
      filled: true,
      user: { id: p.buyerId, name: p.name },
      filledAt: p.createdAt,
      outcome: passed ? "passed_up" : "paid",
      amount: p.amount,
      to: passed ? { name: paidTo.get(p.buyerId) ?? SYSTEM_NAME } : null,
    };
  });

  return {
    program,
    level,
    status: row?.status ?? ("locked" as const),
    slotCount,
    cycles: row?.cycles ?? 0,
    slots,
    earned: BigInt(earned?.cents ?? "0"),
    cycle: shown,
    cyclesCompleted,
    missed: await missedAt(tx, userId, program, level),
    unfreezeCost,
  };
}

/** One level of a member as the operator's record of them shows it (money in cents). */
export interface LevelTotals {
  level: number;
  status: LevelStatus;
  /** Completed cycles of the current activation, as the member's level card counts them. */
  cycles: number;
  /** Slots of the current cycle taken (the card's "filled"). */
  filled: number;
  /** The cycle the level's matrix shows first (matrixOf without `cycle`), over the level's whole life. */
  cycle: number;
  cyclesCompleted: number;
  earned: Cents;
  missed: Cents;
}

/**
 * Every level of both programs of one member, each with the figures its matrix answers the member
 * (matrixOf): status, cycles, the current cycle, what it earned and missed over its whole life.
 * One grouped read per table in one snapshot, instead of a matrix read per level: the same
 * conditions (earnedBy, currentCycle, the placements of the owner), so the figures cannot differ.
 */
export function levelTotalsOf(db: Db, userId: string): Promise<Record<Program, LevelTotals[]>> {
  return db.transaction(
    async (tx) => {
      const key = (program: string, level: number) => `${program}/${level}`;
      const held = await tx
        .select({ program: userLevels.program, level: userLevels.level, status: userLevels.status, cycles: userLevels.cycles, slots: userLevels.slots })
        .from(userLevels)
        .where(eq(userLevels.userId, userId));
      // placements_owner_order_idx, transfers_to_idx, missed_earnings_user_idx: the member's own rows only.
      const taken = await tx
        .select({ program: placements.program, level: placements.level, n: count() })
        .from(placements)
        .where(eq(placements.ownerId, userId))
        .groupBy(placements.program, placements.level);
      const earned = await tx
        .select({ program: transfers.program, level: transfers.level, cents: sql<string>`sum(${transfers.amount})::text` })
        .from(transfers)
        .where(earnedBy(userId))
        .groupBy(transfers.program, transfers.level);
      const missed = await tx
        .select({ program: missedEarnings.program, level: missedEarnings.level, cents: sql<string>`sum(${missedEarnings.amount})::text` })
        .from(missedEarnings)
        .where(eq(missedEarnings.userId, userId))
        .groupBy(missedEarnings.program, missedEarnings.level);
      const levels = new Map(held.map((l) => [key(l.program, l.level), l]));
      const placed = new Map(taken.map((t) => [key(t.program, t.level), t.n]));
      const cents = (rows: { program: string | null; level: number | null; cents: string }[]) =>
        new Map(rows.map((r) => [key(r.program ?? "", r.level ?? 0), BigInt(r.cents)]));
      const earnedAt = cents(earned);
      const missedAt = cents(missed);
      return Object.fromEntries(
        PROGRAMS.map((program) => [
          program,
          Array.from({ length: LEVELS_PER_PROGRAM }, (_, i): LevelTotals => {
            const level = i + 1;
            const row = levels.get(key(program, level));
            const cyclesCompleted = Math.floor((placed.get(key(program, level)) ?? 0) / SLOTS_PER_LEVEL[program]);
            return {
              level,
              status: row?.status ?? "locked",
              cycles: row?.cycles ?? 0,
              filled: row?.slots.length ?? 0,
              cycle: currentCycle(row?.status, cyclesCompleted),
              cyclesCompleted,
              earned: earnedAt.get(key(program, level)) ?? 0n,
              missed: missedAt.get(key(program, level)) ?? 0n,
            };
          }),
        ]),
      ) as Record<Program, LevelTotals[]>;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
