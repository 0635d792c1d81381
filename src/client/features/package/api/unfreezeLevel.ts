import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const unfreezeLevel = ({ program, level, idempotencyKey }: LevelTarget & Keyed) =>
  call(MEMBER.unfreeze, { params: { program, level }, idempotencyKey, quiet: true });

export const useUnfreezeLevel = () => useLevelMutation(unfreezeLevel);
