import { slotRule, type SlotRule } from "../../core/matrix";
import { PROGRAMS, SLOTS_PER_LEVEL, type ProgramId } from "../../shared/constants";

/*
 * The slot tables of the public pages, derived from the rule the purchase itself applies
 * (slotRule, docs/rules.md#slots), so a page cannot say something the server does not do.
 */

export interface SlotRow {
  slot: number;
  rule: SlotRule;
}

export type SlotTables = Record<ProgramId, SlotRow[]>;

/** Every slot of a level of `program`, first to last, with what it does with the price. */
export function slotRows(program: ProgramId): SlotRow[] {
  return Array.from({ length: SLOTS_PER_LEVEL[program] }, (_, i) => ({ slot: i + 1, rule: slotRule(program, i + 1) }));
}

export function slotTables(): SlotTables {
  return Object.fromEntries(PROGRAMS.map((p) => [p, slotRows(p)])) as SlotTables;
}

/** How many slots of one cycle pay the matrix's owner. */
export const paidPerCycle = (rows: SlotRow[]) => rows.filter((r) => r.rule === "paid").length;

/** The program's name as the pages write it: "3P". */
export const programName = (program: ProgramId) => program.toUpperCase();
