import { api } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const unfreezeLevel = ({ program, level, idempotencyKey }: LevelTarget & Keyed) =>
  api<{ msg?: string }>("POST", `/user/packages/unfreeze/${program}/${level}`, { idempotencyKey, quiet: true });

export const useUnfreezeLevel = () => useLevelMutation(unfreezeLevel);
