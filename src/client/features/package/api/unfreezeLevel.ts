import { api } from "../../../lib/api";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const unfreezeLevel = ({ program, level }: LevelTarget) =>
  api<{ msg?: string }>("POST", `/user/packages/unfreeze/${program}/${level}`, { quiet: true });

export const useUnfreezeLevel = () => useLevelMutation(unfreezeLevel);
