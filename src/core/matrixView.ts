import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { placements, transfers, userLevels, users, type Program } from "../db/schema";
import { SLOTS_PER_LEVEL } from "../shared/constants";
import { getLevel } from "./levels";

export interface MatrixSlot {
  slot: number;
  filled: boolean;
  user: { id: string; name: string } | null;
  filledAt: Date | null;
}

/**
 * One user's matrix at (program, level): its state, who fills the slots of the current cycle,
 * and how much the user has earned there (money still in cents).
 */
export async function matrixOf(db: Db, userId: string, program: Program, level: number) {
  await getLevel(db, program, level); // an unknown level answers 404

  const [row] = await db
    .select({ status: userLevels.status, cycles: userLevels.cycles, slots: userLevels.slots })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)));
  const occupants = row?.slots ?? [];

  // A buyer enters a given matrix at most once (one purchase per level, and every pass-up goes
  // strictly up), so (owner, program, level, buyer) names exactly one placement.
  const placed = occupants.length
    ? await db
        .select({ buyerId: placements.buyerId, name: users.name, createdAt: placements.createdAt })
        .from(placements)
        .innerJoin(users, eq(users.id, placements.buyerId))
        .where(
          and(
            eq(placements.ownerId, userId),
            eq(placements.program, program),
            eq(placements.level, level),
            inArray(placements.buyerId, occupants),
          ),
        )
    : [];
  const byBuyer = new Map(placed.map((p) => [p.buyerId, p]));

  const [earned] = await db
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

  const slots: MatrixSlot[] = Array.from({ length: SLOTS_PER_LEVEL[program] }, (_, i) => {
    const buyerId = occupants[i];
    const placement = buyerId ? byBuyer.get(buyerId) : undefined;
    return {
      slot: i + 1,
      filled: buyerId !== undefined,
      user: buyerId && placement ? { id: buyerId, name: placement.name } : null,
      filledAt: placement?.createdAt ?? null,
    };
  });

  return {
    program,
    level,
    status: row?.status ?? ("locked" as const),
    slotCount: SLOTS_PER_LEVEL[program],
    cycles: row?.cycles ?? 0,
    slots,
    earned: BigInt(earned?.cents ?? "0"),
  };
}
