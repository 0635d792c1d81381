import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import type { Keyed } from "../../../lib/moneyMutation";
import { useLevelMutation, type LevelTarget } from "./levelMutation";

export const purchaseLevel = ({ program, level, idempotencyKey }: LevelTarget & Keyed) =>
  call(MEMBER.purchase, { params: { program, level }, idempotencyKey, quiet: true });

export const usePurchaseLevel = () => useLevelMutation(purchaseLevel);
