import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { accounts, placements, userLevels, users, type Program } from "../db/schema";
import { FREEZE_AT_CYCLES, type OwnedLevelStatus, SLOTS_PER_LEVEL } from "../shared/constants";
import type { Cents } from "../shared/money";
import { refuse } from "./errors";
import { SYSTEM, transfer } from "./ledger";
import { getLevel } from "./levels";
import { lockLevelRow, lockReceiver } from "./receiver";

/** What happens to the money when a buyer takes slot `k` of a matrix (docs/rules.md#slots). */
export type SlotRule = "paid" | "pass_up" | "complete";

export function slotRule(program: Program, k: number): SlotRule {
  if (k === SLOTS_PER_LEVEL[program]) return "complete";
  if (program === "6p" && k === 1) return "pass_up";
  return "paid";
}

type Step = { ownerId: string | null; slot: number | null; cycle: number | null; outcome: "paid" | "pass_up" | "system" };

export interface PurchaseResult {
  /** The account that received the cost: a user id or SYSTEM. */
  payee: string;
  cost: Cents;
  transferId: bigint | null;
  steps: Step[];
}

/** Refuses unless the user's available balance (balance minus held withdrawals) covers `amount`. */
async function expectAvailable(tx: Tx, userId: string, amount: Cents) {
  const [row] = await tx.select({ available: sql<string>`${accounts.balance} - ${accounts.held}` }).from(accounts).where(eq(accounts.id, userId));
  // A fast, lock-free refusal; transfer() re-checks atomically when the money moves.
  if (!row || BigInt(row.available) < amount) refuse("insufficient_balance");
}

async function levelStatuses(tx: Tx, userId: string, program: Program, levels: number[]) {
  const rows = await tx
    .select({ level: userLevels.level, status: userLevels.status })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), inArray(userLevels.level, levels)));
  return new Map(rows.map((r) => [r.level, r.status]));
}

const alreadyCode = (status: OwnedLevelStatus) => (status === "active" ? "level_already_active" : "level_already_frozen");

/**
 * Buys (program, level) for `buyerId`: activates the level and places the buyer in the matrix
 * of receiver(buyer), passing up as the rules say, until one account is paid the cost.
 * Must run inside one transaction (inTransaction).
 */
export async function purchaseLevel(tx: Tx, buyerId: string, program: Program, level: number): Promise<PurchaseResult> {
  const { cost } = await getLevel(tx, program, level);
  const statuses = await levelStatuses(tx, buyerId, program, [level, level - 1]);
  const current = statuses.get(level);
  if (current) return refuse(alreadyCode(current));
  if (level > 1 && !statuses.has(level - 1)) return refuse("level_locked");
  await expectAvailable(tx, buyerId, cost);

  // The row copies the buyer's chain and depth (chains.ts), read here. Sharing the buyer's users
  // row makes a sign-up that moves the buyer to another chain wait for this purchase (and then
  // update the copy), or this purchase wait for it (and then read the new chain): the copy is
  // never left stale.
  const [place] = await tx.select({ chainId: users.chainId, depth: users.depth }).from(users).where(eq(users.id, buyerId)).for("share");
  // The buyer's own row is the first user_levels lock this transaction takes (descendant first).
  const inserted = await tx
    .insert(userLevels)
    .values({ userId: buyerId, program, level, status: "active", chainId: place!.chainId, depth: place!.depth })
    .onConflictDoNothing()
    .returning({ userId: userLevels.userId });
  if (inserted.length === 0) {
    // A concurrent purchase of the same level by the same user committed first.
    const won = (await levelStatuses(tx, buyerId, program, [level])).get(level);
    return refuse(alreadyCode(won ?? "active"));
  }

  const steps: Step[] = [];
  let payee: string = SYSTEM;
  for (let from = buyerId; ; ) {
    const owner = await lockReceiver(tx, from, program, level);
    if (!owner) {
      steps.push({ ownerId: null, slot: null, cycle: null, outcome: "system" });
      break;
    }
    const k = owner.slots.length + 1;
    // `cycle` is 1-based within the current activation (unfreezing starts again at 1).
    const step = { ownerId: owner.userId, slot: k, cycle: owner.cycles + 1 };
    const rule = slotRule(program, k);
    const where = and(eq(userLevels.userId, owner.userId), eq(userLevels.program, program), eq(userLevels.level, level));
    if (rule === "complete") {
      const cycles = owner.cycles + 1;
      await tx
        .update(userLevels)
        .set({ slots: [], cycles, status: cycles >= FREEZE_AT_CYCLES ? "frozen" : "active" })
        .where(where);
    } else {
      await tx.update(userLevels).set({ slots: [...owner.slots, buyerId] }).where(where);
    }
    if (rule === "paid") {
      steps.push({ ...step, outcome: "paid" });
      payee = owner.userId;
      break;
    }
    steps.push({ ...step, outcome: "pass_up" });
    from = owner.userId; // strictly up the chain, so this ends within depth-of-tree steps
  }

  // Account rows are locked last, after every user_levels row (the global lock order).
  const transferId =
    cost > 0n
      ? await transfer(tx, { from: buyerId, to: payee, amount: cost, kind: "purchase", program, level })
      : null;
  await tx.insert(placements).values(steps.map((s) => ({ ...s, buyerId, program, level, transferId, amount: cost })));
  return { payee, cost, transferId, steps };
}

/**
 * Unfreezes (program, level) for `userId`: pays unfreezeCost to receiver(user) or `system`,
 * and the level starts again active with 0 cycles and empty slots.
 */
export async function unfreezeLevel(tx: Tx, userId: string, program: Program, level: number): Promise<{ payee: string; amount: Cents }> {
  const { unfreezeCost } = await getLevel(tx, program, level);
  const own = await lockLevelRow(tx, userId, program, level);
  if (own?.status !== "frozen") return refuse("level_not_frozen");
  await expectAvailable(tx, userId, unfreezeCost);

  // Locked (and re-checked active) so the receiver cannot freeze before this commits.
  const receiver = await lockReceiver(tx, userId, program, level);
  const payee = receiver?.userId ?? SYSTEM;
  if (unfreezeCost > 0n) {
    await transfer(tx, { from: userId, to: payee, amount: unfreezeCost, kind: "unfreeze", program, level });
  }
  await tx
    .update(userLevels)
    .set({ status: "active", cycles: 0, slots: [], activatedAt: new Date() })
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)));
  return { payee, amount: unfreezeCost };
}
