import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { levelActionBody, useLevelMutation, type LevelTarget } from "./levelMutation";

export const purchaseLevel = (target: LevelTarget & Keyed) =>
  call(MEMBER.purchase, { params: { program: target.program, level: target.level }, body: levelActionBody(target), idempotencyKey: target.idempotencyKey, quiet: true });

export const usePurchaseLevel = () => useLevelMutation(purchaseLevel);
