import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import type { matrix } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type Matrix = Answer<typeof matrix>;
export type MatrixSlot = Matrix["slots"][number];

export const matrixKey = (program: ProgramId, level?: number) =>
  (level === undefined ? ["matrix", program] : ["matrix", program, level]) as readonly unknown[];

export const getMatrix = (program: ProgramId, level: number, signal?: AbortSignal) =>
  call(MEMBER.matrix, { params: { program, level }, signal, quiet: true });

export const matrixQuery = (program: ProgramId, level: number) =>
  queryOptions({ queryKey: matrixKey(program, level), queryFn: ({ signal }) => getMatrix(program, level, signal) });

/** The slots of one of the user's levels. Off for locked levels, which have no matrix to show. */
export const useMatrix = (program: ProgramId, level: number, enabled: boolean) =>
  useQuery({ ...matrixQuery(program, level), enabled });
