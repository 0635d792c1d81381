import type { Program } from "../db/schema";

/**
 * A reference model of docs/rules.md#purchase, #unfreeze and #missed-earnings, written straight
 * from the text with plain maps and recursion and no database, so property tests can compare the
 * real thing against it. Money in cents. Accounts: user ids, "system", "external".
 */
export type Outcome = "paid" | "pass_up" | "system";
export type ModelStep = [owner: string | null, slot: number | null, cycle: number | null, outcome: Outcome];
export type ModelTransfer = [from: string, to: string, amount: bigint, kind: string];
/** A missed earning: who missed it, whose purchase or unfreeze, where, how much, why. */
export type ModelMissed = [user: string, buyer: string, program: Program, level: number, amount: bigint, reason: "frozen" | "not_active"];
export type ModelResult = { refused: string } | { transfers: ModelTransfer[]; steps: ModelStep[]; missed: ModelMissed[] };

/** One slot ever taken in a matrix, as the member sees it (docs/rules.md#slot-outcomes). */
export interface ModelPlacement {
  buyer: string;
  outcome: "paid" | "passed_up";
  amount: bigint;
  /** A pass-up: the account finally paid for that purchase (a user id or "system"); else null. */
  to: string | null;
}

interface LevelState {
  status: "active" | "frozen";
  cycles: number;
  slots: string[];
}

const SLOTS: Record<Program, number> = { "3p": 3, "6p": 6 };
const FREEZE_AT = 2;
const done = (transfers: ModelTransfer[] = [], steps: ModelStep[] = [], missed: ModelMissed[] = []): ModelResult => ({ transfers, steps, missed });

export class MatrixModel {
  readonly referrer = new Map<string, string | null>();
  readonly deleted = new Set<string>();
  readonly balance = new Map<string, bigint>();
  readonly held = new Map<string, bigint>();
  readonly levels = new Map<string, LevelState>();
  /** Every slot ever taken in each matrix ("owner|program|level"), in order, over all its cycles. */
  readonly placed = new Map<string, ModelPlacement[]>();

  constructor(private readonly prices: (program: Program, level: number) => { cost: bigint; unfreezeCost: bigint }) {}

  addUser(id: string, referrer: string | null) {
    this.referrer.set(id, referrer);
    this.balance.set(id, 0n);
    this.held.set(id, 0n);
  }

  level(id: string, program: Program, level: number) {
    return this.levels.get(`${id}|${program}|${level}`);
  }

  /** The slots ever taken in the matrix of `id` at (program, level). */
  history(id: string, program: Program, level: number): ModelPlacement[] {
    return this.placed.get(`${id}|${program}|${level}`) ?? [];
  }

  available(id: string) {
    return (this.balance.get(id) ?? 0n) - (this.held.get(id) ?? 0n);
  }

  move(from: string, to: string, amount: bigint, kind: string): ModelTransfer[] {
    if (amount === 0n) return [];
    this.balance.set(from, (this.balance.get(from) ?? 0n) - amount);
    this.balance.set(to, (this.balance.get(to) ?? 0n) + amount);
    return [[from, to, amount, kind]];
  }

  eligible(id: string, program: Program, level: number) {
    return !this.deleted.has(id) && this.level(id, program, level)?.status === "active";
  }

  /**
   * receiver(X): the first eligible user walking up from X's referrer; null means system. Every
   * user walked past who is not deleted and whose level is frozen goes into `passed`.
   */
  receiver(x: string, program: Program, level: number, passed: string[] = []): string | null {
    for (let u = this.referrer.get(x) ?? null; u !== null; u = this.referrer.get(u) ?? null) {
      if (this.eligible(u, program, level)) return u;
      if (!this.deleted.has(u) && this.level(u, program, level)?.status === "frozen") passed.push(u);
    }
    return null;
  }

  /** place(B, R): returns the account paid and appends the steps taken, the slots taken and who was passed by. */
  place(b: string, r: string | null, program: Program, level: number, steps: ModelStep[], taken: ModelPlacement[], passed: string[]): string {
    if (r === null) {
      steps.push([null, null, null, "system"]);
      return "system";
    }
    const state = this.level(r, program, level)!;
    state.slots.push(b);
    const k = state.slots.length;
    const cycle = state.cycles + 1;
    const completes = k === SLOTS[program];
    const key = `${r}|${program}|${level}`;
    const slot: ModelPlacement = { buyer: b, outcome: "paid", amount: this.prices(program, level).cost, to: null };
    this.placed.set(key, [...(this.placed.get(key) ?? []), slot]);
    taken.push(slot);
    if (!completes && !(program === "6p" && k === 1)) {
      steps.push([r, k, cycle, "paid"]);
      return r;
    }
    slot.outcome = "passed_up";
    steps.push([r, k, cycle, "pass_up"]);
    if (completes) {
      state.slots = [];
      state.cycles += 1;
      if (state.cycles >= FREEZE_AT) state.status = "frozen";
    }
    return this.place(b, this.receiver(r, program, level, passed), program, level, steps, taken, passed);
  }

  purchase(b: string, program: Program, level: number): ModelResult {
    const current = this.level(b, program, level);
    if (current) return { refused: current.status === "active" ? "This level is already active." : "This level is already frozen." };
    if (level > 1 && !this.level(b, program, level - 1)) return { refused: "Please purchase previous levels first." };
    const { cost } = this.prices(program, level);
    if (this.available(b) < cost) return { refused: "Insufficient balance." };
    this.levels.set(`${b}|${program}|${level}`, { status: "active", cycles: 0, slots: [] });
    const steps: ModelStep[] = [];
    const taken: ModelPlacement[] = [];
    const passed: string[] = [];
    const payee = this.place(b, this.receiver(b, program, level, passed), program, level, steps, taken, passed);
    for (const slot of taken) if (slot.outcome === "passed_up") slot.to = payee;
    const missed: ModelMissed[] = passed.map((u) => [u, b, program, level, cost, "frozen"]);
    const referrer = this.referrer.get(b) ?? null;
    if (referrer !== null && !this.deleted.has(referrer) && !this.level(referrer, program, level)) missed.push([referrer, b, program, level, cost, "not_active"]);
    return done(this.move(b, payee, cost, "purchase"), steps, cost > 0n ? missed : []);
  }

  unfreeze(u: string, program: Program, level: number): ModelResult {
    const state = this.level(u, program, level);
    if (state?.status !== "frozen") return { refused: "This level is not frozen." };
    const { unfreezeCost } = this.prices(program, level);
    if (this.available(u) < unfreezeCost) return { refused: "Insufficient balance." };
    const passed: string[] = [];
    const payee = this.receiver(u, program, level, passed) ?? "system";
    Object.assign(state, { status: "active", cycles: 0, slots: [] });
    const missed: ModelMissed[] = unfreezeCost > 0n ? passed.map((p) => [p, u, program, level, unfreezeCost, "frozen"]) : [];
    return done(this.move(u, payee, unfreezeCost, "unfreeze"), [], missed);
  }

  gift(from: string, to: string, amount: bigint): ModelResult {
    if (this.deleted.has(to)) return { refused: "Recipient not found." };
    if (from === to) return { refused: "You cannot send a gift to yourself." };
    if (this.available(from) < amount) return { refused: "Insufficient balance." };
    return done(this.move(from, to, amount, "gift"));
  }

  holdWithdrawal(u: string, amount: bigint): ModelResult {
    if (this.available(u) < amount) return { refused: "Withdrawal amount cannot exceed your available balance." };
    this.held.set(u, (this.held.get(u) ?? 0n) + amount);
    return done();
  }

  delete(u: string): ModelResult {
    if (this.deleted.has(u)) return { refused: "User not found." };
    this.deleted.add(u);
    return done();
  }
}
