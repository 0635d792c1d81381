import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { blockMark, inBlock } from "../db/pipelinedBegin";
import { userLevels, users, type Program } from "../db/schema";
import { FREEZE_AT_CYCLES, type OwnedLevelStatus, SLOTS_PER_LEVEL, type SlotOutcome } from "../shared/constants";
import type { ErrorCode } from "../shared/errorCodes";
import type { Cents } from "../shared/money";
import { refuse } from "./errors";
import { KeyReservation } from "./idempotency";
import { type Alongside, SYSTEM, transfer, transferAnswering } from "./ledger";
import { getLevel } from "./levels";
import { type MissedRecord, missedNotifications, recordMissed } from "./missed";
import { type NewNotification, NOTIFIED, notificationRows, notificationValues, notificationWrite, notificationWrites, notifyAll, texts } from "./notifications";
import { runPrepared, statementOnce } from "./prepared";
import { sendWithCommit } from "./tx";
import { lockCaller } from "./users";
import { type LockedLevel, lockingWalk, type LockingWalkRow, lockReceiver, peekReceiver, type Walk, walkFrom } from "./receiver";

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
  steps: Step[];
  /** Who the purchase passed by (docs/rules.md#missed-earnings), in the order recorded. */
  missed: MissedRecord[];
}

async function levelStatuses(tx: Tx | Db, userId: string, program: Program, levels: number[]) {
  const rows = await tx
    .select({ level: userLevels.level, status: userLevels.status })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), inArray(userLevels.level, levels)));
  return new Map(rows.map((r) => [r.level, r.status]));
}

const alreadyCode = (status: OwnedLevelStatus) => (status === "active" ? "level_already_active" : "level_already_frozen");

/** docs/rules.md#purchase step 1 but the level's existence and the balance, from the buyer's statuses at this level and the one before. */
function expectPurchasable(level: number, current: OwnedLevelStatus | undefined, previousHeld: boolean) {
  if (current) refuse(alreadyCode(current));
  if (level > 1 && !previousHeld) refuse("level_locked");
}

/** docs/rules.md#purchase step 1 but the balance: answers the level's prices, or refuses. */
async function purchasable(tx: Tx | Db, buyerId: string, program: Program, level: number) {
  const prices = await getLevel(tx, program, level);
  const statuses = await levelStatuses(tx, buyerId, program, [level, level - 1]);
  expectPurchasable(level, statuses.get(level), statuses.has(level - 1));
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
  fill?: (owner: LockedLevel, rule: SlotRule) => void,
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
    fill?.(owner, rule);
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

/** What the activation answers (one row). */
type ActivationRow = LockingWalkRow & {
  cost: string | null;
  current: OwnedLevelStatus | null;
  previous: OwnedLevelStatus | null;
  available: string | null;
  name: string | null;
  referrer_without: string | null;
  activated: boolean;
  key_reserved: boolean;
};

/**
 * The activation's statement (see activate), with and without an Idempotency-Key, each made once
 * with placeholders: `start` (the buyer), `program`, `level`, `expectedCost` (or null), `mark`
 * (blockMark), and, with a key, KeyReservation's values.
 */
const activation = (() => {
  const { start: buyerId, program, level } = walkFrom;
  const expectedCost = sql.placeholder("expectedCost");
  const mark = sql.placeholder("mark");
  const statement = (keyed: boolean) => {
    const walk = lockingWalk(buyerId, program, level, sql`EXISTS (SELECT 1 FROM activated)`);
    return statementOnce<ActivationRow>(
      keyed ? "purchase_activate_keyed" : "purchase_activate",
      sql`WITH RECURSIVE ${keyed ? sql`${KeyReservation.ctes},` : sql``} buyer AS MATERIALIZED (
        SELECT id, chain_id, depth, name, referrer_id FROM users
        WHERE id = ${buyerId} AND deleted_at IS NULL AND ${keyed ? sql`EXISTS (SELECT 1 FROM key_reserved)` : sql`${inBlock} = ${mark}::text`}
        FOR SHARE
      ),
      state AS MATERIALIZED (
        SELECT pl.cost,
          (SELECT status FROM user_levels WHERE user_id = ${buyerId} AND program = ${program} AND level = ${level}::int) AS current,
          (SELECT status FROM user_levels WHERE user_id = ${buyerId} AND program = ${program} AND level = ${level}::int - 1) AS previous,
          (SELECT balance - held FROM accounts WHERE id = ${buyerId}) AS available
        FROM (SELECT 1) one LEFT JOIN program_levels pl ON pl.program = ${program} AND pl.level = ${level}::int
      ),
      activated AS (
        INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
        SELECT b.id, ${program}::text, ${level}::smallint, 'active', b.chain_id, b.depth
        FROM buyer b, state s
        WHERE s.cost IS NOT NULL AND s.current IS NULL AND (${level}::int = 1 OR s.previous IS NOT NULL) AND s.available >= s.cost
          AND (${expectedCost}::bigint IS NULL OR s.cost = ${expectedCost}::bigint)
        ON CONFLICT DO NOTHING
        RETURNING user_id
      ),
      ${walk.ctes}
      SELECT s.cost::text AS cost, s.current, s.previous, s.available::text AS available, b.name,
        (SELECT r.id FROM users r WHERE r.id = b.referrer_id AND r.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM user_levels rl WHERE rl.user_id = r.id AND rl.program = ${program} AND rl.level = ${level}::int)) AS referrer_without,
        EXISTS (SELECT 1 FROM activated) AS activated,
        ${keyed ? sql`EXISTS (SELECT 1 FROM key_reserved)` : sql`true`} AS key_reserved,
        ${walk.columns}
      FROM state s LEFT JOIN buyer b ON true ${walk.joins}`,
    );
  };
  return { keyed: statement(true), unkeyed: statement(false) };
})();

/**
 * docs/rules.md#purchase steps 1 and 2 in one statement. It shares the buyer's users row and
 * reads their chain, depth, name and referrer there: the user_levels row copies the chain and depth
 * (chains.ts), and sharing the row makes a sign-up that moves the buyer to another chain wait for
 * this purchase (and then update the copy), or this purchase wait for it (and then read the new
 * chain, a locked read seeing the row as it is now): the copy is never left stale. It reads,
 * without locks, the level's price, the buyer's statuses at this level and the one before and
 * their available balance (a fast refusal; transfer() checks again atomically when the money
 * moves), and, when all of step 1 holds, inserts the buyer's level row, active: the first
 * user_levels lock the purchase takes (descendant first). The insert reads the shared row, so
 * it comes after that lock. Refuses as step 1 says, in its order.
 *
 * It also reads, without locks, the buyer's direct referrer when they are not deleted and have no
 * row at the level: theirs is a `not_active` missed earning (docs/rules.md#missed-earnings). When
 * there is none, and the walks passed no frozen user, the purchase has no missed earning to
 * record and makes no statement for them (most purchases).
 *
 * With `key`, the call's Idempotency-Key is reserved first, in this statement (KeyReservation):
 * the buyer's row is read, and so every lock taken and row written, only once `key_reserved` has
 * its row. Without one, the buyer's row is read only inside the transaction (`inBlock`): the
 * statement may have gone out with the BEGIN (src/db/pipelinedBegin.ts), and should that BEGIN
 * have failed, the statement writes and locks nothing. (With a key, the key's reservation checks
 * the same.)
 */
async function activate(
  tx: Tx,
  buyerId: string,
  program: Program,
  level: number,
  key: KeyReservation | undefined,
  expectedCost: Cents | undefined,
): Promise<{ cost: Cents; buyer: string; referrerWithout: string | null; firstWalk: LockingWalkRow }> {
  const values = { start: buyerId, program, level, expectedCost: expectedCost ?? null, mark: blockMark(tx) };
  const [row] = key ? await activation.keyed(tx, { ...values, ...key.values }) : await activation.unkeyed(tx, values);
  // First: with the key taken, nothing else was read as the purchase's.
  key?.settle(row?.key_reserved === true);
  // Every refusal below comes before anything is written but the key's row: the activation's
  // insert asks what they check, and refuses with them. transact commits such a refusal as the
  // key's answer, so the insert must not have happened (expectPurchasable cannot refuse after it).
  const refuseUnwritten = (code: ErrorCode): never => {
    if (row?.activated) throw new Error(`the activation wrote the level's row of a purchase it refuses (${code})`);
    return refuse(code);
  };
  if (row?.cost == null) return refuseUnwritten("level_not_found");
  // No buyer: deleted since the token was checked (the deletion was waited for, then seen).
  if (row.name === null) return refuseUnwritten("bad_token");
  expectPurchasable(level, row.current ?? undefined, row.previous !== null);
  const cost = BigInt(row.cost);
  // The price the member was shown, or nothing (before the balance is weighed against another price).
  if (expectedCost !== undefined && cost !== expectedCost) return refuseUnwritten("price_changed");
  if (row.available === null || BigInt(row.available) < cost) return refuseUnwritten("insufficient_balance");
  if (!row.activated) {
    // A concurrent purchase of the same level by the same user committed first.
    const won = (await levelStatuses(tx, buyerId, program, [level])).get(level);
    return refuse(alreadyCode(won ?? "active"));
  }
  return { cost, buyer: row.name, referrerWithout: row.referrer_without, firstWalk: row };
}

/** A matrix owner's level row after a buyer took its next slot (docs/rules.md#slots): written once the loop is done. */
interface Fill {
  userId: string;
  slots: string[];
  cycles: number;
  status: OwnedLevelStatus;
}

/**
 * What a purchase writes once the loop is done and the missed earnings are recorded, as the
 * writes of the transfer's statement (ledger.ts Alongside): one placement row per step, in order
 * (their ids grow with the steps), naming the transfer; each filled owner's level row; and,
 * after the money moved (lock order: the members' notifications locks come after the accounts),
 * the notifications.
 * The level rows were locked FOR UPDATE by the loop, so writing them takes no lock. (No step of
 * the loop reads a row an earlier step filled: each walk starts above it.) The writes are the
 * same on every purchase of a shape; these are their values.
 *
 * Two shapes: most purchases are one step that fills at most one owner's row and tells at most
 * one member (`purchaseWritingOne`, its rows as values of their own); any other takes lists
 * (`purchaseWriting`, its rows as JSON). The two write the same rows: Postgres sets up every
 * part of a statement's plan on each run, and the lists' parts (reading JSON, grouping, joining,
 * sorting) cost more than the one purchase's writes (docs/performance.md).
 */
function purchaseWrites(buyerId: string, program: Program, level: number, cost: Cents, steps: Step[], fills: Fill[], notes: NewNotification[]): Alongside {
  const purchase = { pBuyer: buyerId, pProgram: program, pLevel: level, pCost: cost };
  const [step] = steps;
  if (steps.length === 1 && step && fills.length <= 1 && notes.length <= 1) {
    const fill = fills[0];
    return {
      ...purchaseWritingOne,
      values: {
        ...purchase,
        pOwner: step.ownerId,
        pSlot: step.slot,
        pCycle: step.cycle,
        pOutcome: step.outcome,
        pFillUser: fill?.userId ?? null,
        pSlots: fill?.slots ?? [],
        pCycles: fill?.cycles ?? 0,
        pStatus: fill?.status ?? "active",
        ...notificationValues("pN", notes[0]),
      },
    };
  }
  const stepRows = steps.map((s) => ({ owner: s.ownerId, slot: s.slot, cycle: s.cycle, outcome: s.outcome }));
  const fillRows = fills.map((f) => ({ user: f.userId, slots: f.slots, cycles: f.cycles, status: f.status }));
  return {
    ...purchaseWriting,
    values: {
      ...purchase,
      pSteps: JSON.stringify(stepRows),
      pFills: JSON.stringify(fillRows),
      pFillUsers: JSON.stringify(fillRows.map((row) => row.user)),
      pNotes: notificationRows(notes),
    },
  };
}

const p = (name: string) => sql.placeholder(name);

/**
 * A shape of purchaseWrites: its placements (`placed`, the rows after the column list, given the
 * transfer's id), the owners' level rows (`filled`) and the notifications, whose part `notified`
 * announces (given `moved`).
 */
function purchaseShape(name: string, placed: (transferId: SQL) => SQL, filled: SQL, notifications: (moved: SQL) => SQL) {
  return {
    name,
    announcing: [NOTIFIED],
    writes: (transfer: { id: SQL; moved: SQL }) => [
      sql`purchase_placed AS (
      INSERT INTO placements (buyer_id, owner_id, program, level, slot, cycle, outcome, transfer_id, amount)
      ${placed(transfer.id)}
    )`,
      sql`purchase_filled AS (${filled})`,
      notifications(transfer.moved),
    ],
  };
}

/** The writes of purchaseWrites for lists of steps, fills and notifications, with placeholders (prefixed `p`). */
const purchaseWriting = purchaseShape(
  "purchase",
  (transferId) => sql`SELECT ${p("pBuyer")}::text, s.v->>'owner', ${p("pProgram")}::text, ${p("pLevel")}::smallint, (s.v->>'slot')::smallint,
        (s.v->>'cycle')::int, s.v->>'outcome', ${transferId}, ${p("pCost")}::bigint
      FROM jsonb_array_elements(${p("pSteps")}::jsonb) WITH ORDINALITY s(v, ord)
      ORDER BY s.ord`,
  sql`UPDATE user_levels ul
      SET slots = ARRAY(SELECT e.id FROM jsonb_array_elements_text(f.v->'slots') WITH ORDINALITY e(id, n) ORDER BY e.n),
        cycles = (f.v->>'cycles')::int, status = f.v->>'status'
      FROM jsonb_array_elements(${p("pFills")}::jsonb) f(v)
      -- The ids again as an array: the planner then reads the owners' rows by primary key, where
      -- the join alone let it scan every level row.
      WHERE ul.user_id = f.v->>'user' AND ul.user_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${p("pFillUsers")}::jsonb)))
        AND ul.program = ${p("pProgram")} AND ul.level = ${p("pLevel")}::int`,
  (moved) => notificationWrites(p("pNotes"), moved),
);

/**
 * The writes of purchaseWrites for one step, at most one fill (none: `pFillUser` null) and at
 * most one notification (notificationWrite, prefixed `pN`).
 */
const purchaseWritingOne = purchaseShape(
  "purchase_one",
  (transferId) => sql`VALUES (${p("pBuyer")}::text, ${p("pOwner")}::text, ${p("pProgram")}::text, ${p("pLevel")}::smallint, ${p("pSlot")}::smallint,
        ${p("pCycle")}::int, ${p("pOutcome")}::text, ${transferId}, ${p("pCost")}::bigint)`,
  sql`UPDATE user_levels SET slots = ${p("pSlots")}::text[], cycles = ${p("pCycles")}::int, status = ${p("pStatus")}::text
      WHERE user_id = ${p("pFillUser")}::text AND program = ${p("pProgram")} AND level = ${p("pLevel")}::int`,
  (moved) => notificationWrite("pN", moved),
);

/**
 * A free level's purchase moves no money: its writes alone, with no transfer to name; one
 * statement per shape of purchaseWrites, made once.
 */
const freePurchase = (() => {
  const statement = (writing: ReturnType<typeof purchaseShape>) =>
    statementOnce(`${writing.name}_free`, sql`WITH ${sql.join(writing.writes({ id: sql`NULL::bigint`, moved: sql`true` }), sql`, `)} SELECT 1`);
  const byShape = new Map([purchaseWriting, purchaseWritingOne].map((writing) => [writing.name, statement(writing)]));
  return (tx: Tx, writes: Alongside) => byShape.get(writes.name)!(tx, writes.values);
})();

/**
 * Buys (program, level) for `buyerId`: activates the level and places the buyer in the matrix
 * of receiver(buyer), passing up as the rules say, until one account is paid the cost.
 * Must run as the work of inTransaction, in one transaction. With `key`, its first statement
 * reserves the call's Idempotency-Key (transact). With `expectedCost` (the price the member was
 * shown), a level whose price is now another is refused with "price_changed", nothing bought.
 *
 * Statements, in the lock order: the activation (the key's row with a key, the buyer's users row
 * shared, then their level row); one per step of the loop (the receiver's level row, then their
 * users row); the missed earnings (key-share locks on users rows); the transfer (the accounts, by
 * id), which also writes the placements, the owners' level rows and, last, the notifications
 * (their members' notifications locks first). The transfer is sent with the COMMIT, unread
 * (sendWithCommit): the purchase has returned by then, and a refusal there fails the transaction
 * (inTransaction throws it).
 */
export async function purchaseLevel(tx: Tx, buyerId: string, program: Program, level: number, key?: KeyReservation, expectedCost?: Cents): Promise<PurchaseResult> {
  const { cost, buyer, referrerWithout, firstWalk } = await activate(tx, buyerId, program, level, key, expectedCost);

  const fills: Fill[] = [];
  const { payee, steps, passed } = await placementLoop(
    buyerId,
    program,
    // The walk from the buyer was made by the activation; every later walk starts higher up.
    (from) => lockReceiver(tx, from, program, level, from === buyerId ? firstWalk : undefined),
    (owner, rule) => {
      if (rule === "complete") {
        const cycles = owner.cycles + 1;
        fills.push({ userId: owner.userId, slots: [], cycles, status: cycles >= FREEZE_AT_CYCLES ? "frozen" : "active" });
      } else {
        fills.push({ userId: owner.userId, slots: [...owner.slots, buyerId], cycles: owner.cycles, status: "active" });
      }
    },
  );

  // The frozen users the walks went past, then the referrer without the level, as the activation read them (docs/rules.md#missed-earnings).
  const recorded = await recordMissed(tx, buyerId, program, level, cost, passed, { referrer: referrerWithout ?? undefined });
  // Each matrix owner, who froze, and who was passed by.
  const notes = [...purchaseNotifications(buyer, buyerId, program, level, cost, steps, payee), ...missedNotifications(recorded, buyer, "purchase", program, level, cost)];
  const writes = purchaseWrites(buyerId, program, level, cost, steps, fills, notes);
  if (cost > 0n) {
    // Account rows are locked last, after every user_levels row (the global lock order). The
    // last statement, sent with the COMMIT: a refused transfer fails it, and so the transaction.
    const moved = transferAnswering(tx, { from: buyerId, to: payee, amount: cost, kind: "purchase", program, level }, writes);
    sendWithCommit(tx, moved, moved.then((m) => m.events));
  } else {
    await freePurchase(tx, writes);
  }
  const missed: MissedRecord[] = recorded.map(({ userId, reason }) => ({ userId, reason }));
  return { payee, cost, steps, missed };
}

/**
 * What a purchase tells the owners of the matrices it filled: the slot taken and where the money
 * went; and, when the slot completed the level's last cycle, that the level froze. A buyer fills
 * an owner's matrix at (program, level) once ever, so the buyer names the event.
 */
function purchaseNotifications(buyer: string, buyerId: string, program: Program, level: number, cost: Cents, steps: Step[], payee: string): NewNotification[] {
  const notes: NewNotification[] = [];
  // Where a passed-up cost ended: the purchase pays one account, a member above or `system`.
  const toPlatform = payee === SYSTEM;
  for (const step of steps) {
    if (step.ownerId === null || step.slot === null || step.cycle === null) continue;
    const complete = step.slot === SLOTS_PER_LEVEL[program];
    const text =
      step.outcome === "paid"
        ? texts.slotPaid(buyer, step.slot, program, level, cost)
        : complete
          ? texts.cycleCompleted(buyer, step.slot, program, level, cost, toPlatform)
          : texts.slotPassedUp(buyer, step.slot, program, level, cost, toPlatform);
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

/** An unfrozen level starts again: active, no cycles, empty slots (placeholders prefixed `u`). */
const reactivate = sql`UPDATE user_levels SET status = 'active', cycles = 0, slots = '{}'::text[], activated_at = ${sql.placeholder("uAt")}::timestamptz
  WHERE user_id = ${sql.placeholder("uUser")} AND program = ${sql.placeholder("uProgram")} AND level = ${sql.placeholder("uLevel")}::int`;
/** The reactivation written with the unfreeze's transfer. */
const reactivation = { name: "unfreeze", writes: () => [sql`unfreeze_reactivated AS (${reactivate})`] };
/** The reactivation alone, for a level whose unfreezing is free. */
const freeReactivation = statementOnce("unfreeze_free", reactivate);

/**
 * Unfreezes (program, level) for `userId`: pays unfreezeCost to receiver(user) or `system`,
 * and the level starts again active with 0 cycles and empty slots. With `expectedCost` (the
 * price the member was shown), another price is refused with "price_changed", nothing paid.
 */
export async function unfreezeLevel(
  tx: Tx,
  userId: string,
  program: Program,
  level: number,
  expectedCost?: Cents,
): Promise<{ payee: string; amount: Cents; missed: MissedRecord[] }> {
  // The member's row shared first: a deletion in progress is waited for, then refused.
  await lockCaller(tx, userId);
  // The level's price, and the user's own level row locked (their first user_levels lock).
  const [own] = await runPrepared<{ cost: string; status: OwnedLevelStatus | null }>(
    tx,
    "unfreeze_own",
    sql`SELECT pl.unfreeze_cost::text AS cost, own.status
      FROM program_levels pl
      LEFT JOIN LATERAL (
        SELECT status FROM user_levels WHERE user_id = ${userId} AND program = ${program} AND level = ${level}::int FOR UPDATE
      ) own ON true
      WHERE pl.program = ${program} AND pl.level = ${level}::int`,
  );
  if (!own) return refuse("level_not_found");
  const unfreezeCost = BigInt(own.cost);
  expectFrozen(own.status ?? undefined);
  // The price the member was shown, or nothing.
  if (expectedCost !== undefined && unfreezeCost !== expectedCost) return refuse("price_changed");
  // A fast, lock-free refusal; transfer() re-checks atomically when the money moves. The name is for the notifications.
  const [payer] = await runPrepared<{ available: string; name: string | null }>(
    tx,
    "unfreeze_payer",
    sql`SELECT (a.balance - a.held)::text AS available, (SELECT name FROM users WHERE id = a.id) AS name FROM accounts a WHERE a.id = ${userId}`,
  );
  if (!payer || BigInt(payer.available) < unfreezeCost) return refuse("insufficient_balance");

  // Locked (and re-checked active) so the receiver cannot freeze before this commits.
  const { receiver, passed } = await lockReceiver(tx, userId, program, level);
  const payee = receiver?.userId ?? SYSTEM;
  const recorded = await recordMissed(tx, userId, program, level, unfreezeCost, passed);
  // The user's level row (locked above) starts again: written with the transfer when there is one.
  const reactivated = { uUser: userId, uProgram: program, uLevel: level, uAt: new Date().toISOString() };
  let paid: bigint | undefined;
  if (unfreezeCost > 0n) {
    paid = await transfer(tx, { from: userId, to: payee, amount: unfreezeCost, kind: "unfreeze", program, level }, { ...reactivation, values: reactivated });
  } else {
    await freeReactivation(tx, reactivated);
  }
  const name = payer.name ?? "A member";
  const notes: NewNotification[] = missedNotifications(recorded, name, "unfreeze", program, level, unfreezeCost);
  // The member the payment reached; the key names the transfer, as every unfreeze pays once.
  if (paid && payee !== SYSTEM) {
    notes.push({ userId: payee, kind: "unfreeze_paid", eventKey: `unfreeze:${paid}`, text: texts.unfreezePaid(name, program, level, unfreezeCost), data: { program, level, from: userId } });
  }
  await notifyAll(tx, notes);
  return { payee, amount: unfreezeCost, missed: unfreezeCost > 0n ? passed.map((id) => ({ userId: id, reason: "frozen" })) : [] };
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
