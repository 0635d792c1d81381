import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { accounts, placements, userLevels, users, type Program } from "../db/schema";
import { FREEZE_AT_CYCLES, type OwnedLevelStatus, SLOTS_PER_LEVEL, type SlotOutcome } from "../shared/constants";
import type { Cents } from "../shared/money";
import { refuse } from "./errors";
import { SYSTEM, transfer } from "./ledger";
import { getLevel } from "./levels";
import { type MissedRecord, missedNotifications, recordMissed, referrerWithoutLevel } from "./missed";
import { nameOf, type NewNotification, notifyAll, texts } from "./notifications";
import { type LockedLevel, lockLevelRow, lockReceiver, peekReceiver, type Walk } from "./receiver";

/** What happens to the money when a buyer takes slot `k` of a matrix (docs/rules.md#slots). */
export type SlotRule = "paid" | "pass_up" | "complete";

export function slotRule(program: Program, k: number): SlotRule {
  if (k === SLOTS_PER_LEVEL[program]) return "complete";
  if (program === "6p" && k === 1) return "pass_up";
  return "paid";
}

export type Step = { ownerId: string | null; slot: number | null; cycle: number | null; outcome: "paid" | "pass_up" | "system" };

export interface PurchaseResult {
  /** The account that received the cost: a user id or SYSTEM. */
  payee: string;
  cost: Cents;
  transferId: bigint | null;
  steps: Step[];
  /** Who the purchase passed by (docs/rules.md#missed-earnings), in the order recorded. */
  missed: MissedRecord[];
}

/** Refuses unless the user's available balance (balance minus held withdrawals) covers `amount`. */
async function expectAvailable(tx: Tx, userId: string, amount: Cents) {
  const [row] = await tx.select({ available: sql<string>`${accounts.balance} - ${accounts.held}` }).from(accounts).where(eq(accounts.id, userId));
  // A fast, lock-free refusal; transfer() re-checks atomically when the money moves.
  if (!row || BigInt(row.available) < amount) refuse("insufficient_balance");
}

async function levelStatuses(tx: Tx | Db, userId: string, program: Program, levels: number[]) {
  const rows = await tx
    .select({ level: userLevels.level, status: userLevels.status })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), inArray(userLevels.level, levels)));
  return new Map(rows.map((r) => [r.level, r.status]));
}

const alreadyCode = (status: OwnedLevelStatus) => (status === "active" ? "level_already_active" : "level_already_frozen");

/** docs/rules.md#purchase step 1 but the balance: answers the level's prices, or refuses. */
async function purchasable(tx: Tx | Db, buyerId: string, program: Program, level: number) {
  const prices = await getLevel(tx, program, level);
  const statuses = await levelStatuses(tx, buyerId, program, [level, level - 1]);
  const current = statuses.get(level);
  if (current) return refuse(alreadyCode(current));
  if (level > 1 && !statuses.has(level - 1)) return refuse("level_locked");
  return prices;
}

/** docs/rules.md#unfreeze: the user's level must be frozen. */
const expectFrozen = (status: OwnedLevelStatus | undefined) => (status === "frozen" ? undefined : refuse("level_not_frozen"));

/**
 * The placement loop of docs/rules.md#purchase, step 3, written once. `find` is receiver(from)
 * with the frozen users its walk went past; `fill` applies the slot's rule to the owner's matrix.
 * The purchase gives lockReceiver and a write; the preview gives peekReceiver and nothing, so it
 * runs the very same steps without a lock or a write. (Nothing a step writes is read by a later
 * step: each walk starts above the owner the previous step filled.)
 */
async function placementLoop(
  buyerId: string,
  program: Program,
  find: (from: string) => Promise<Walk<LockedLevel>>,
  fill?: (owner: LockedLevel, rule: SlotRule) => Promise<void>,
): Promise<{ payee: string; steps: Step[]; passed: string[] }> {
  const steps: Step[] = [];
  const passed: string[] = [];
  for (let from = buyerId; ; ) {
    const walk = await find(from);
    passed.push(...walk.passed);
    const owner = walk.receiver;
    if (!owner) {
      steps.push({ ownerId: null, slot: null, cycle: null, outcome: "system" });
      return { payee: SYSTEM, steps, passed };
    }
    const k = owner.slots.length + 1;
    const rule = slotRule(program, k);
    await fill?.(owner, rule);
    // `cycle` is 1-based within the current activation (unfreezing starts again at 1).
    const step = { ownerId: owner.userId, slot: k, cycle: owner.cycles + 1 };
    if (rule === "paid") {
      steps.push({ ...step, outcome: "paid" });
      return { payee: owner.userId, steps, passed };
    }
    steps.push({ ...step, outcome: "pass_up" });
    from = owner.userId; // strictly up the chain, so this ends within depth-of-tree steps
  }
}

/** What a purchase records as missed: the frozen users its walks went past, then the referrer without the level. */
function missedOfPurchase(passed: string[], referrer: string | null): MissedRecord[] {
  const missed: MissedRecord[] = passed.map((userId) => ({ userId, reason: "frozen" }));
  if (referrer) missed.push({ userId: referrer, reason: "not_active" });
  return missed;
}

/**
 * Buys (program, level) for `buyerId`: activates the level and places the buyer in the matrix
 * of receiver(buyer), passing up as the rules say, until one account is paid the cost.
 * Must run inside one transaction (inTransaction).
 */
export async function purchaseLevel(tx: Tx, buyerId: string, program: Program, level: number): Promise<PurchaseResult> {
  const { cost } = await purchasable(tx, buyerId, program, level);
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

  const { payee, steps, passed } = await placementLoop(
    buyerId,
    program,
    (from) => lockReceiver(tx, from, program, level),
    async (owner, rule) => {
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
    },
  );

  const missed = missedOfPurchase(passed, await referrerWithoutLevel(tx, buyerId, program, level));
  const recorded = await recordMissed(tx, buyerId, program, level, cost, missed);
  // Account rows are locked last, after every user_levels row (the global lock order).
  const transferId =
    cost > 0n
      ? await transfer(tx, { from: buyerId, to: payee, amount: cost, kind: "purchase", program, level })
      : null;
  await tx.insert(placements).values(steps.map((s) => ({ ...s, buyerId, program, level, transferId, amount: cost })));
  // Last (docs/rules.md#lock-order): each matrix owner, who froze, and who was passed by.
  const buyer = await nameOf(tx, buyerId);
  await notifyAll(tx, [...purchaseNotifications(buyer, buyerId, program, level, cost, steps), ...missedNotifications(recorded, buyer, "purchase", program, level, cost)]);
  return { payee, cost, transferId, steps, missed: cost > 0n ? missed : [] };
}

/**
 * What a purchase tells the owners of the matrices it filled: the slot taken and where the money
 * went; and, when the slot completed the level's last cycle, that the level froze. A buyer fills
 * an owner's matrix at (program, level) once ever, so the buyer names the event.
 */
function purchaseNotifications(buyer: string, buyerId: string, program: Program, level: number, cost: Cents, steps: Step[]): NewNotification[] {
  const notes: NewNotification[] = [];
  for (const step of steps) {
    if (step.ownerId === null || step.slot === null || step.cycle === null) continue;
    const complete = step.slot === SLOTS_PER_LEVEL[program];
    const text =
      step.outcome === "paid"
        ? texts.slotPaid(buyer, step.slot, program, level, cost)
        : complete
          ? texts.cycleCompleted(buyer, step.slot, program, level, cost)
          : texts.slotPassedUp(buyer, step.slot, program, level, cost);
    const data = { program, level, slot: step.slot, outcome: step.outcome === "paid" ? "paid" : "passed_up" };
    notes.push({ userId: step.ownerId, kind: "slot_taken", eventKey: `slot:${program}:${level}:${buyerId}`, text, data });
    if (complete && step.cycle >= FREEZE_AT_CYCLES) {
      notes.push({
        userId: step.ownerId,
        kind: "level_frozen",
        eventKey: `frozen:${program}:${level}:${buyerId}`,
        text: texts.levelFrozen(program, level, step.cycle),
        data: { program, level },
      });
    }
  }
  return notes;
}

/**
 * Unfreezes (program, level) for `userId`: pays unfreezeCost to receiver(user) or `system`,
 * and the level starts again active with 0 cycles and empty slots.
 */
export async function unfreezeLevel(
  tx: Tx,
  userId: string,
  program: Program,
  level: number,
): Promise<{ payee: string; amount: Cents; missed: MissedRecord[] }> {
  const { unfreezeCost } = await getLevel(tx, program, level);
  const own = await lockLevelRow(tx, userId, program, level);
  expectFrozen(own?.status);
  await expectAvailable(tx, userId, unfreezeCost);

  // Locked (and re-checked active) so the receiver cannot freeze before this commits.
  const { receiver, passed } = await lockReceiver(tx, userId, program, level);
  const payee = receiver?.userId ?? SYSTEM;
  const missed: MissedRecord[] = passed.map((id) => ({ userId: id, reason: "frozen" }));
  const recorded = await recordMissed(tx, userId, program, level, unfreezeCost, missed);
  let paid: bigint | undefined;
  if (unfreezeCost > 0n) {
    paid = await transfer(tx, { from: userId, to: payee, amount: unfreezeCost, kind: "unfreeze", program, level });
  }
  const notes: NewNotification[] = [];
  if (recorded.length > 0 || (unfreezeCost > 0n && payee !== SYSTEM)) {
    const name = await nameOf(tx, userId);
    notes.push(...missedNotifications(recorded, name, "unfreeze", program, level, unfreezeCost));
    // The member the payment reached; the key names the transfer, as every unfreeze pays once.
    if (paid && payee !== SYSTEM) {
      notes.push({ userId: payee, kind: "unfreeze_paid", eventKey: `unfreeze:${paid}`, text: texts.unfreezePaid(name, program, level, unfreezeCost), data: { program, level, from: userId } });
    }
  }
  if (notes.length > 0) await notifyAll(tx, notes);
  await tx
    .update(userLevels)
    .set({ status: "active", cycles: 0, slots: [], activatedAt: new Date() })
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)));
  return { payee, amount: unfreezeCost, missed: unfreezeCost > 0n ? missed : [] };
}

/** An account as a preview names it: a user, or null for `system`. */
type Named = { id: string; name: string };

/** What a purchase or an unfreeze would do now (docs/rules.md#previews). */
export interface LevelPreview {
  action: "purchase" | "unfreeze";
  program: Program;
  level: number;
  amount: Cents;
  /** The account that would be paid; null for `system`. */
  receiver: Named | null;
  /** A purchase: the first matrix the buyer would enter, and what its slot does; null when that is `system`. */
  matrix: { owner: Named; slot: number; outcome: SlotOutcome } | null;
}

async function named(db: Db | Tx, id: string | null): Promise<Named | null> {
  if (id === null) return null;
  const [row] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, id));
  return row ?? null;
}

/**
 * The purchase as it would run now, read without a lock or a write: the same checks (but the
 * balance: the preview is for deciding), the same walks and the same placement loop.
 */
export async function previewPurchase(db: Db | Tx, buyerId: string, program: Program, level: number): Promise<LevelPreview> {
  const { cost } = await purchasable(db, buyerId, program, level);
  const { payee, steps } = await placementLoop(buyerId, program, (from) => peekReceiver(db, from, program, level));
  const first = steps[0]!;
  const owner = await named(db, first.ownerId);
  return {
    action: "purchase",
    program,
    level,
    amount: cost,
    receiver: await named(db, payee === SYSTEM ? null : payee),
    matrix: owner && { owner, slot: first.slot!, outcome: first.outcome === "paid" ? "paid" : "passed_up" },
  };
}

/** The unfreeze as it would run now, read without a lock or a write (the balance aside). */
export async function previewUnfreeze(db: Db | Tx, userId: string, program: Program, level: number): Promise<LevelPreview> {
  const { unfreezeCost } = await getLevel(db, program, level);
  expectFrozen((await levelStatuses(db, userId, program, [level])).get(level));
  const { receiver } = await peekReceiver(db, userId, program, level);
  return { action: "unfreeze", program, level, amount: unfreezeCost, receiver: await named(db, receiver?.userId ?? null), matrix: null };
}
