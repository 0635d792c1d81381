import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import type { LevelAction as ActionName, ProgramId } from "../../../shared/constants";
import type { ErrorCode } from "../../../shared/errorCodes";
import { MSG } from "../../../shared/messages";
import type { Cents } from "../../../shared/money";
import { formatMoney } from "../../components/Money";
import { ApiError } from "../../lib/api";
import { confirmAction } from "../../lib/confirm";
import { availableBalance, type Me, meKey } from "../../lib/me";
import { showFailure, successMessage } from "../../lib/serverMessage";
import { getLevelPreview, type LevelPreview } from "./api/getPreview";
import { usePurchaseLevel } from "./api/purchaseLevel";
import type { LevelTarget } from "./api/levelMutation";
import { levelsKey } from "../programs/api/getLevels";
import { useUnfreezeLevel } from "./api/unfreezeLevel";
import { canPurchase, type LevelView } from "./levels";
import { PREVIEW_UNAVAILABLE, receiverSentence } from "./previewText";

const PRICE_MISSING = "Could not find level details. Please try again.";

interface LevelAction {
  name: ActionName;
  /** What the action costs, from the level's price entry. */
  price: (price: NonNullable<LevelView["price"]>) => Cents;
  confirm: (level: number, cost: string) => { title: string; text: string; confirmText: string };
  submit: (target: LevelTarget) => Promise<unknown>;
  success: string;
  failure: string;
}

/**
 * Refusals of the level rules: the purchase or unfreeze itself would get the same answer, so the
 * dialog is not opened for it (the page was out of date; the member sees why instead).
 */
const RULE_REFUSALS: ReadonlySet<ErrorCode> = new Set(["level_not_found", "level_locked", "level_already_active", "level_already_frozen", "level_not_frozen"]);

type PreviewRead = { preview: LevelPreview } | { refused: string } | { preview: null };

/**
 * The preview, a rule refusal, or nothing. A preview that fails otherwise (no answer, too slow,
 * a server error, an answer that does not fit the contract) says nothing about the action: the
 * dialog then opens without the receiver and the member still decides; the server checks again.
 */
async function readPreview(action: ActionName, program: ProgramId, level: number): Promise<PreviewRead> {
  try {
    return { preview: await getLevelPreview(action, program, level) };
  } catch (error) {
    if (error instanceof ApiError && error.code && RULE_REFUSALS.has(error.code)) return { refused: error.message };
    return { preview: null };
  }
}

/**
 * Buy and unfreeze with the spec's gating, confirmation dialogs and toasts. Before the dialog
 * opens, the server is asked who would receive the money now, and the dialog says so.
 */
export function useLevelActions(program: ProgramId, levels: LevelView[], onDone: (level: number) => void) {
  const client = useQueryClient();
  const purchase = usePurchaseLevel();
  const unfreeze = useUnfreezeLevel();
  // While the preview loads the buttons stay enabled (a disabled button drops keyboard focus,
  // which the dialog would then fail to give back); a second click meanwhile is ignored.
  const [checking, setChecking] = useState(false);
  const opening = useRef(false);
  // The level whose action last succeeded: its action button goes with its new state, and the
  // keyboard focus it held moves to the level's own button (LevelCard).
  const [done, setDone] = useState<number | null>(null);
  const name = program.toUpperCase();

  /** Whether the member's available balance covers `cost`; unknown (not loaded) counts as yes. */
  async function covers(cost: Cents): Promise<boolean> {
    const available = () => {
      const me = client.getQueryData<Me>(meKey);
      return me ? availableBalance(me) : null;
    };
    const before = available();
    if (before === null || before >= cost) return true;
    await client.refetchQueries({ queryKey: meKey, exact: true }).catch(() => {});
    const after = available();
    return after === null || after >= cost;
  }

  /** The price check, the preview, the confirmation, the call and its toasts: the same for both actions. */
  async function run(view: LevelView, action: LevelAction) {
    if (!view.price) {
      toast.error(PRICE_MISSING);
      return;
    }
    if (opening.current) return;
    opening.current = true;
    setChecking(true);
    setDone(null);
    const read = await readPreview(action.name, program, view.level).finally(() => {
      opening.current = false;
      setChecking(false);
    });
    if ("refused" in read) {
      toast.error(read.refused);
      void client.invalidateQueries({ queryKey: meKey });
      return;
    }
    const { preview } = read;
    // The preview's amount is the server's figure of this moment; the price list's is the fallback.
    // It is what the member agrees to pay: sent along, the server charges it or nothing.
    const shown = preview?.amount ?? action.price(view.price);
    // The price list is older than the server's figure: the cards read it again.
    if (preview && preview.amount !== action.price(view.price)) void client.invalidateQueries({ queryKey: levelsKey(program) });
    // The balance is a limit known in advance: short of it, no dialog (read again first, in case
    // money arrived that the header does not show yet). The server checks it again anyway.
    if (!(await covers(shown))) {
      toast.error(MSG.insufficientBalance);
      return;
    }
    const dialog = action.confirm(view.level, formatMoney(shown));
    const where = preview ? receiverSentence(preview) : PREVIEW_UNAVAILABLE;
    if (!(await confirmAction({ ...dialog, text: `${dialog.text} ${where}` }))) return;
    try {
      const answer = await action.submit({ program, level: view.level, expectedCost: shown });
      toast.success(successMessage(answer, action.success));
      setDone(view.level);
      onDone(view.level);
    } catch (error) {
      showFailure(error, action.failure);
      // An admin changed the price since it was shown: the cards show the new one.
      if (error instanceof ApiError && error.code === "price_changed") void client.invalidateQueries({ queryKey: levelsKey(program) });
    }
  }

  const buy = (view: LevelView) => {
    if (!canPurchase(view.level, levels)) return void toast.error(MSG.purchasePrevious);
    return run(view, {
      name: "purchase",
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
      name: "unfreeze",
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

  return { buy, unfreeze: unfreezeLevel, busy: purchase.isPending || unfreeze.isPending, checking, done };
}
