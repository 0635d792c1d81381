import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { PUBLIC } from "../../../../shared/contract/public";
import type { levelPrice } from "../../../../shared/contract/public";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

/** A level's price list entry, in cents. */
export type LevelPrice = Answer<typeof levelPrice>;

export const levelsKey = (program: ProgramId) => ["programs", program, "levels"] as const;

// Quiet: the pages show their own load-failure text instead of a toast.
export const getLevels = (program: ProgramId, signal?: AbortSignal) =>
  call(PUBLIC.levels, { params: { program }, signal, quiet: true });

export const levelsQuery = (program: ProgramId) =>
  queryOptions({ queryKey: levelsKey(program), queryFn: ({ signal }) => getLevels(program, signal) });

export const useLevels = (program: ProgramId) => useQuery(levelsQuery(program));
