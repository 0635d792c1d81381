import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { levelActionBody, useLevelMutation, type LevelTarget } from "./levelMutation";

export const unfreezeLevel = (target: LevelTarget & Keyed) =>
  call(MEMBER.unfreeze, { params: { program: target.program, level: target.level }, body: levelActionBody(target), idempotencyKey: target.idempotencyKey, quiet: true });

export const useUnfreezeLevel = () => useLevelMutation(unfreezeLevel);
