import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { programLevels, type Program } from "../db/schema";
import { LEVELS_PER_PROGRAM, PROGRAMS } from "../shared/constants";
import type { Cents } from "../shared/money";
import { bumpContentVersion } from "./contentVersion";
import { refuse } from "./errors";

/** Default cost of level n: 5 x 2^(n-1) USDT; unfreeze costs half. */
export function defaultLevels() {
  return PROGRAMS.flatMap((program) =>
    Array.from({ length: LEVELS_PER_PROGRAM }, (_, i) => {
      const cost = 500n * 2n ** BigInt(i);
      return { program, level: i + 1, cost, unfreezeCost: cost / 2n };
    }),
  );
}

export async function listLevels(db: Db, program: Program) {
  return db
    .select({ level: programLevels.level, cost: programLevels.cost, unfreezeCost: programLevels.unfreezeCost })
    .from(programLevels)
    .where(eq(programLevels.program, program))
    .orderBy(asc(programLevels.level));
}

export async function getLevel(tx: Tx | Db, program: Program, level: number, options: { lock?: boolean } = {}) {
  const query = tx
    .select({ level: programLevels.level, cost: programLevels.cost, unfreezeCost: programLevels.unfreezeCost })
    .from(programLevels)
    .where(and(eq(programLevels.program, program), eq(programLevels.level, level)));
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? refuse("level_not_found");
}

/**
 * Changes a level's prices, and then (the lock order: the level's row, then the version's) the
 * content version in the same transaction: the public pages show the new prices at once in this
 * process and within seconds in every other (src/core/contentVersion.ts).
 */
export async function updateLevel(tx: Tx, program: Program, level: number, prices: { cost: Cents; unfreezeCost: Cents }) {
  const [row] = await tx
    .update(programLevels)
    .set(prices)
    .where(and(eq(programLevels.program, program), eq(programLevels.level, level)))
    .returning({ level: programLevels.level, cost: programLevels.cost, unfreezeCost: programLevels.unfreezeCost });
  if (!row) return refuse("level_not_found");
  await bumpContentVersion(tx);
  return row;
}
