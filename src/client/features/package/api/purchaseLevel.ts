import { api } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const purchaseLevel = ({ program, level, idempotencyKey }: LevelTarget & Keyed) =>
  api<{ msg?: string }>("POST", `/user/packages/purchase/${program}/${level}`, { idempotencyKey, quiet: true });

export const usePurchaseLevel = () => useLevelMutation(purchaseLevel);
