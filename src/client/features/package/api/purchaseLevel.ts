import { api } from "../../../lib/api";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const purchaseLevel = ({ program, level }: LevelTarget) =>
  api<{ msg?: string }>("POST", `/user/packages/purchase/${program}/${level}`, { quiet: true });

export const usePurchaseLevel = () => useLevelMutation(purchaseLevel);
