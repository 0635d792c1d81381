import { formatMoney } from "../../components/Money";
import type { LevelPreview } from "./api/getPreview";
import { payee } from "./levels";

/**
 * Where the money of a purchase or an unfreeze would go, as the confirmation says it:
 * "20.00 $ goes to Grace Hopper.", and for a purchase the slot taken, and whether that slot passes
 * the money up. When it goes to the platform, why, as the preview tells it apart
 * (docs/rules.md#previews): no one above the member holds the level active (no matrix to enter),
 * or the matrix entered passes the money up and no one above holds the level active to take it.
 */
export function receiverSentence(preview: LevelPreview): string {
  const amount = formatMoney(preview.amount);
  const level = `Level ${preview.level} of ${preview.program.toUpperCase()}`;
  const { matrix, receiver } = preview;
  if (preview.action !== "purchase" || !matrix) {
    if (receiver) return `${amount} goes to ${payee(receiver)}.`;
    // Frozen holders are passed by, so "active": holding it frozen is not enough.
    return `${amount} goes to the platform: no one above you holds ${level} active.`;
  }
  const slot = `You take slot ${matrix.slot} in ${matrix.owner.name}'s matrix`;
  if (matrix.outcome !== "passed_up") return `${slot}. ${amount} goes to ${payee(receiver)}.`;
  if (receiver) return `${slot}; that slot passes the money up, so ${amount} goes to ${payee(receiver)}.`;
  return `${slot}; that slot passes the money up, and no one above ${matrix.owner.name} holds ${level} active to receive it, so ${amount} goes to the platform.`;
}

/** Said instead when the preview could not be read: the member still decides. */
export const PREVIEW_UNAVAILABLE = "Who receives it could not be checked right now.";
