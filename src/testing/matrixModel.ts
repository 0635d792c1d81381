import type { Program } from "../db/schema";

/**
 * A reference model of docs/rules.md#purchase, written straight from the text with plain maps
 * and recursion and no database, so property tests can compare the real thing against it.
 * Money in cents. Accounts: user ids, "system", "external".
 */
export type Outcome = "paid" | "pass_up" | "system";
export type ModelStep = [owner: string | null, slot: number | null, cycle: number | null, outcome: Outcome];
export type ModelTransfer = [from: string, to: string, amount: bigint, kind: string];
export type ModelResult = { refused: string } | { transfers: ModelTransfer[]; steps: ModelStep[] };

interface LevelState {
  status: "active" | "frozen";
  cycles: number;
  slots: string[];
}

const SLOTS: Record<Program, number> = { "3p": 3, "6p": 6 };
const FREEZE_AT = 2;

export class MatrixModel {
  readonly referrer = new Map<string, string | null>();
  readonly deleted = new Set<string>();
  readonly balance = new Map<string, bigint>();
  readonly held = new Map<string, bigint>();
  readonly levels = new Map<string, LevelState>();

  constructor(private readonly prices: (program: Program, level: number) => { cost: bigint; unfreezeCost: bigint }) {}

  addUser(id: string, referrer: string | null) {
    this.referrer.set(id, referrer);
    this.balance.set(id, 0n);
    this.held.set(id, 0n);
  }

  level(id: string, program: Program, level: number) {
    return this.levels.get(`${id}|${program}|${level}`);
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

  /** receiver(X): the first eligible user walking up from X's referrer; null means system. */
  receiver(x: string, program: Program, level: number): string | null {
    for (let u = this.referrer.get(x) ?? null; u !== null; u = this.referrer.get(u) ?? null) {
      if (this.eligible(u, program, level)) return u;
    }
    return null;
  }

  /** place(B, R): returns the account paid and appends the steps taken. */
  place(b: string, r: string | null, program: Program, level: number, steps: ModelStep[]): string {
    if (r === null) {
      steps.push([null, null, null, "system"]);
      return "system";
    }
    const state = this.level(r, program, level)!;
    state.slots.push(b);
    const k = state.slots.length;
    const cycle = state.cycles + 1;
    const completes = k === SLOTS[program];
    if (!completes && !(program === "6p" && k === 1)) {
      steps.push([r, k, cycle, "paid"]);
      return r;
    }
    steps.push([r, k, cycle, "pass_up"]);
    if (completes) {
      state.slots = [];
      state.cycles += 1;
      if (state.cycles >= FREEZE_AT) state.status = "frozen";
    }
    return this.place(b, this.receiver(r, program, level), program, level, steps);
  }

  purchase(b: string, program: Program, level: number): ModelResult {
    const current = this.level(b, program, level);
    if (current) return { refused: current.status === "active" ? "This level is already active." : "This level is already frozen." };
    if (level > 1 && !this.level(b, program, level - 1)) return { refused: "Please purchase previous levels first." };
    const { cost } = this.prices(program, level);
    if (this.available(b) < cost) return { refused: "Insufficient balance." };
    this.levels.set(`${b}|${program}|${level}`, { status: "active", cycles: 0, slots: [] });
    const steps: ModelStep[] = [];
    const payee = this.place(b, this.receiver(b, program, level), program, level, steps);
    return { transfers: this.move(b, payee, cost, "purchase"), steps };
  }

  unfreeze(u: string, program: Program, level: number): ModelResult {
    const state = this.level(u, program, level);
    if (state?.status !== "frozen") return { refused: "This level is not frozen." };
    const { unfreezeCost } = this.prices(program, level);
    if (this.available(u) < unfreezeCost) return { refused: "Insufficient balance." };
    const payee = this.receiver(u, program, level) ?? "system";
    Object.assign(state, { status: "active", cycles: 0, slots: [] });
    return { transfers: this.move(u, payee, unfreezeCost, "unfreeze"), steps: [] };
  }

  gift(from: string, to: string, amount: bigint): ModelResult {
    if (this.deleted.has(to)) return { refused: "Recipient not found." };
    if (from === to) return { refused: "You cannot send a gift to yourself." };
    if (this.available(from) < amount) return { refused: "Insufficient balance." };
    return { transfers: this.move(from, to, amount, "gift"), steps: [] };
  }

  holdWithdrawal(u: string, amount: bigint): ModelResult {
    if (this.available(u) < amount) return { refused: "Withdrawal amount cannot exceed your available balance." };
    this.held.set(u, (this.held.get(u) ?? 0n) + amount);
    return { transfers: [], steps: [] };
  }

  delete(u: string): ModelResult {
    if (this.deleted.has(u)) return { refused: "User not found." };
    this.deleted.add(u);
    return { transfers: [], steps: [] };
  }
}
