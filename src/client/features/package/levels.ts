import type { Me } from "../../lib/me";
import type { LevelPrice } from "../programs/api/getLevels";
import { SLOTS_PER_LEVEL, type LevelStatus, type ProgramId } from "../../../shared/constants";

/** One level card: the program's price joined with the user's state at that level. */
export interface LevelView {
  level: number;
  status: LevelStatus;
  /** Null when the price list has no entry for a level the user has (spec: "price missing"). */
  price: LevelPrice | null;
  filled: number;
  cycles: number;
}

/**
 * The spec counts any status other than locked or frozen as purchased; the badge calls it
 * active.
 */
export function normaliseStatus(status: string | undefined): LevelStatus {
  if (status === "locked" || status === "frozen") return status;
  return status === undefined ? "locked" : "active";
}

export function joinLevels(prices: LevelPrice[], me: Me | undefined, program: ProgramId): LevelView[] {
  const mine = me?.packages?.[program]?.levels ?? [];
  const numbers = new Set([...prices.map((p) => p.level), ...mine.map((l) => l.level)]);
  return [...numbers]
    .sort((a, b) => a - b)
    .map((level) => {
      const state = mine.find((l) => l.level === level);
      return {
        level,
        status: normaliseStatus(state?.status),
        price: prices.find((p) => p.level === level) ?? null,
        filled: state?.boxes?.length ?? 0,
        cycles: state?.cycles ?? 0,
      };
    });
}

/** The highest level that is not locked, 0 when the user owns none. */
export const highestOpenLevel = (levels: Pick<LevelView, "level" | "status">[]) =>
  levels.reduce((top, l) => (l.status !== "locked" && l.level > top ? l.level : top), 0);

/** A locked level can be bought only if no level below it is missing (spec section 4). */
export const canPurchase = (level: number, levels: Pick<LevelView, "level" | "status">[]) => level <= highestOpenLevel(levels) + 1;

/**
 * How a level reads: owned levels by their status; a locked level the member may buy now (level
 * 1, or the one above their highest) reads "available", not locked.
 */
export type LevelLook = LevelStatus | "available";
export const levelLook = (view: Pick<LevelView, "level" | "status">, levels: Pick<LevelView, "level" | "status">[]): LevelLook =>
  view.status === "locked" && canPurchase(view.level, levels) ? "available" : view.status;

/**
 * Whether a slot passes the money up instead of paying the matrix's owner (docs/rules.md#slots):
 * 6P slot 1, and the last slot of either program, which completes the cycle.
 */
export const passesUp = (program: ProgramId, slot: number) => slot === SLOTS_PER_LEVEL[program] || (program === "6p" && slot === 1);

/** Whether a slot completes the cycle (its last slot). */
export const completesCycle = (program: ProgramId, slot: number) => slot === SLOTS_PER_LEVEL[program];

/** Who an account name stands for in a sentence: the system account reads "the platform". */
export const SYSTEM_NAME = "System";
export const payee = (to: { name: string } | null | undefined) => (!to || to.name === SYSTEM_NAME ? "the platform" : to.name);
