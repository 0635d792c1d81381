import toast from "react-hot-toast";
import type { ProgramId } from "../../../shared/constants";
import { formatMoney } from "../../components/Money";
import { confirmAction } from "../../lib/confirm";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import { usePurchaseLevel } from "./api/purchaseLevel";
import { useUnfreezeLevel } from "./api/unfreezeLevel";
import { canPurchase, type LevelView } from "./levels";

const PRICE_MISSING = "Could not find level details. Please try again.";

/** Buy and unfreeze with the spec's gating, confirmation dialogs and toasts. */
export function useLevelActions(program: ProgramId, levels: LevelView[], onDone: (level: number) => void) {
  const purchase = usePurchaseLevel();
  const unfreeze = useUnfreezeLevel();
  const name = program.toUpperCase();

  async function buy(view: LevelView) {
    if (!canPurchase(view.level, levels)) {
      toast.error("Please purchase previous levels first.");
      return;
    }
    if (!view.price) {
      toast.error(PRICE_MISSING);
      return;
    }
    const ok = await confirmAction({
      title: `Buy Level ${view.level}?`,
      text: `Level ${view.level} of ${name} costs ${formatMoney(view.price.cost)}, paid from your balance.`,
      confirmText: "Yes, buy it!",
    });
    if (!ok) return;
    try {
      const answer = await purchase.submit({ program, level: view.level });
      toast.success(successMessage(answer, "Level purchased successfully!"));
      onDone(view.level);
    } catch (error) {
      toast.error(failureMessage(error, "Purchase failed."));
    }
  }

  async function unfreezeLevel(view: LevelView) {
    if (!view.price) {
      toast.error(PRICE_MISSING);
      return;
    }
    const ok = await confirmAction({
      title: `Unfreeze Level ${view.level}?`,
      text: `Unfreezing Level ${view.level} of ${name} costs ${formatMoney(view.price.unfreezeCost)}, paid from your balance. The level starts a new cycle.`,
      confirmText: "Yes, unfreeze it!",
    });
    if (!ok) return;
    try {
      const answer = await unfreeze.submit({ program, level: view.level });
      toast.success(successMessage(answer, "Level unfrozen successfully!"));
      onDone(view.level);
    } catch (error) {
      toast.error(failureMessage(error, "Unfreeze failed."));
    }
  }

  return { buy, unfreeze: unfreezeLevel, busy: purchase.isPending || unfreeze.isPending };
}
