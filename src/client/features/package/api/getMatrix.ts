import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { api } from "../../../lib/api";
import type { LevelStatus } from "../../../lib/me";

export interface MatrixSlot {
  slot: number;
  filled: boolean;
  user: { _id: string; name: string } | null;
  filledAt: string | null;
}

export interface Matrix {
  program: ProgramId;
  level: number;
  status: LevelStatus;
  slotCount: number;
  cycles: number;
  slots: MatrixSlot[];
  earned: number;
}

export const matrixKey = (program: ProgramId, level?: number) =>
  (level === undefined ? ["matrix", program] : ["matrix", program, level]) as readonly unknown[];

export const getMatrix = (program: ProgramId, level: number, signal?: AbortSignal) =>
  api<Matrix>("GET", `/user/matrix/${program}/${level}`, { signal, quiet: true });

export const matrixQuery = (program: ProgramId, level: number) =>
  queryOptions({ queryKey: matrixKey(program, level), queryFn: ({ signal }) => getMatrix(program, level, signal) });

/** The slots of one of the user's levels. Off for locked levels, which have no matrix to show. */
export const useMatrix = (program: ProgramId, level: number, enabled: boolean) =>
  useQuery({ ...matrixQuery(program, level), enabled });
