import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { api } from "../../../lib/api";

/** A level's price list entry, in dollars. */
export interface LevelPrice {
  level: number;
  cost: number;
  unfreezeCost: number;
}

export const levelsKey = (program: ProgramId) => ["programs", program, "levels"] as const;

// Quiet: the pages show their own load-failure text instead of a toast.
export const getLevels = (program: ProgramId, signal?: AbortSignal) =>
  api<LevelPrice[]>("GET", `/programs/${program}/levels`, { signal, quiet: true });

export const levelsQuery = (program: ProgramId) =>
  queryOptions({ queryKey: levelsKey(program), queryFn: ({ signal }) => getLevels(program, signal) });

export const useLevels = (program: ProgramId) => useQuery(levelsQuery(program));
