import toast from "react-hot-toast";
import type { ProgramId } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import type { Cents } from "../../../shared/money";
import { formatMoney } from "../../components/Money";
import { confirmAction } from "../../lib/confirm";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import { usePurchaseLevel } from "./api/purchaseLevel";
import { useUnfreezeLevel } from "./api/unfreezeLevel";
import { canPurchase, type LevelView } from "./levels";

const PRICE_MISSING = "Could not find level details. Please try again.";

interface LevelAction {
  /** What the action costs, from the level's price entry. */
  price: (price: NonNullable<LevelView["price"]>) => Cents;
  confirm: (level: number, cost: string) => { title: string; text: string; confirmText: string };
  submit: (target: { program: ProgramId; level: number }) => Promise<unknown>;
  success: string;
  failure: string;
}

/** Buy and unfreeze with the spec's gating, confirmation dialogs and toasts. */
export function useLevelActions(program: ProgramId, levels: LevelView[], onDone: (level: number) => void) {
  const purchase = usePurchaseLevel();
  const unfreeze = useUnfreezeLevel();
  const name = program.toUpperCase();

  /** The price check, the confirmation, the call and its toasts: the same for both actions. */
  async function run(view: LevelView, action: LevelAction) {
    if (!view.price) {
      toast.error(PRICE_MISSING);
      return;
    }
    if (!(await confirmAction(action.confirm(view.level, formatMoney(action.price(view.price)))))) return;
    try {
      const answer = await action.submit({ program, level: view.level });
      toast.success(successMessage(answer, action.success));
      onDone(view.level);
    } catch (error) {
      toast.error(failureMessage(error, action.failure));
    }
  }

  const buy = (view: LevelView) => {
    if (!canPurchase(view.level, levels)) return void toast.error(MSG.purchasePrevious);
    return run(view, {
      price: (price) => price.cost,
      confirm: (level, cost) => ({
        title: `Buy Level ${level}?`,
        text: `Level ${level} of ${name} costs ${cost}, paid from your balance.`,
        confirmText: "Yes, buy it!",
      }),
      submit: purchase.submit,
      success: MSG.levelPurchased,
      failure: "Purchase failed.",
    });
  };

  const unfreezeLevel = (view: LevelView) =>
    run(view, {
      price: (price) => price.unfreezeCost,
      confirm: (level, cost) => ({
        title: `Unfreeze Level ${level}?`,
        text: `Unfreezing Level ${level} of ${name} costs ${cost}, paid from your balance. The level starts a new cycle.`,
        confirmText: "Yes, unfreeze it!",
      }),
      submit: unfreeze.submit,
      success: MSG.levelUnfrozen,
      failure: "Unfreeze failed.",
    });

  return { buy, unfreeze: unfreezeLevel, busy: purchase.isPending || unfreeze.isPending };
}
