import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { placements, transfers, userLevels, users, type Program } from "../db/schema";
import { SLOTS_PER_LEVEL, type SlotOutcome } from "../shared/constants";
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
  // Active: the cycle being filled. Frozen: the last one completed. Locked: the first, empty.
  const current = row?.status === "active" ? cyclesCompleted + 1 : Math.max(cyclesCompleted, 1);
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
    .where(
      and(
        eq(transfers.toAccount, userId),
        eq(transfers.program, program),
        eq(transfers.level, level),
        inArray(transfers.kind, ["purchase", "unfreeze"]),
      ),
    );

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
