import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import type { matrix } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type Matrix = Answer<typeof matrix>;
export type MatrixSlot = Matrix["slots"][number];

/**
 * ["matrix", program] covers every level and cycle of a program (what a purchase or an unfreeze
 * invalidates); a cycle of `undefined` is the level's current one (no `?cycle=`).
 */
export const matrixKey = (program: ProgramId, level?: number, cycle?: number) =>
  (level === undefined ? ["matrix", program] : ["matrix", program, level, cycle ?? "current"]) as readonly unknown[];

/** One cycle of a level's matrix: `cycle` in the level's lifetime numbering (1 is the first), else the current one. */
export const getMatrix = (program: ProgramId, level: number, cycle?: number, signal?: AbortSignal) =>
  call(MEMBER.matrix, { params: { program, level }, query: cycle === undefined ? undefined : { cycle }, signal, quiet: true });

export const matrixQuery = (program: ProgramId, level: number, cycle?: number) =>
  queryOptions({ queryKey: matrixKey(program, level, cycle), queryFn: ({ signal }) => getMatrix(program, level, cycle, signal) });

/**
 * The slots of one of the user's levels, in one cycle. Off for locked levels, which have no
 * matrix to show. While another cycle of the same level loads, the one shown stays (no flash).
 */
export const useMatrix = (program: ProgramId, level: number, cycle: number | undefined, enabled: boolean) =>
  useQuery({
    ...matrixQuery(program, level, cycle),
    enabled,
    placeholderData: (previous) => (previous?.program === program && previous.level === level ? previous : undefined),
  });
