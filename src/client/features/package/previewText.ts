import { formatMoney } from "../../components/Money";
import type { LevelPreview } from "./api/getPreview";
import { payee } from "./levels";

/**
 * Where the money of a purchase or an unfreeze would go, as the confirmation says it:
 * "20.00 $ goes to Grace Hopper." or "... goes to the platform." (no one above has the level
 * active), and for a purchase the slot taken, and whether that slot passes the money up.
 */
export function receiverSentence(preview: LevelPreview): string {
  const goes = `${formatMoney(preview.amount)} goes to ${payee(preview.receiver)}.`;
  const { matrix } = preview;
  if (preview.action !== "purchase" || !matrix) return goes;
  const slot = `You take slot ${matrix.slot} in ${matrix.owner.name}'s matrix`;
  return matrix.outcome === "passed_up" ? `${slot}; that slot passes the money up, so ${goes}` : `${slot}. ${goes}`;
}

/** Said instead when the preview could not be read: the member still decides. */
export const PREVIEW_UNAVAILABLE = "Who receives it could not be checked right now.";
