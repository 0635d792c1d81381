import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { ADMIN } from "../../../../shared/contract/admin";
import { formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { levelsKey, type LevelPrice } from "./getLevels";

export const updateLevel = (program: ProgramId, { level, cost, unfreezeCost }: LevelPrice) =>
  call(ADMIN.updateLevel, {
    params: { program, level },
    body: { cost: formatDollars(cost), unfreezeCost: formatDollars(unfreezeCost) },
    quiet: true,
  });

/** Saves one level's prices; every page showing that program's prices refetches. */
export function useUpdateLevel(program: ProgramId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (price: LevelPrice) => updateLevel(program, price),
    onSuccess: () => client.invalidateQueries({ queryKey: levelsKey(program) }),
  });
}
