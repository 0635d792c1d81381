import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { api } from "../../../lib/api";
import { levelsKey, type LevelPrice } from "./getLevels";

export interface UpdateLevelAnswer {
  msg: string;
  level: LevelPrice;
}

export const updateLevel = (program: ProgramId, { level, cost, unfreezeCost }: LevelPrice) =>
  api<UpdateLevelAnswer>("PATCH", `/programs/${program}/levels/${level}`, { body: { cost, unfreezeCost }, quiet: true });

/** Saves one level's prices; every page showing that program's prices refetches. */
export function useUpdateLevel(program: ProgramId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (price: LevelPrice) => updateLevel(program, price),
    onSuccess: () => client.invalidateQueries({ queryKey: levelsKey(program) }),
  });
}
