import type { LevelAction, ProgramId } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import type { levelPreview } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

/** Who a purchase or an unfreeze would pay now, and for a purchase which slot of whose matrix it takes. */
export type LevelPreview = Answer<typeof levelPreview>;

/** A confirmation should not wait long on a preview: past this it opens without one. */
export const PREVIEW_TIMEOUT_MS = 5_000;

const ENDPOINT = { purchase: MEMBER.purchasePreview, unfreeze: MEMBER.unfreezePreview } as const;

/**
 * Read once, right before the confirmation opens (never cached: the receiver changes as others
 * buy, freeze and unfreeze). Quiet: a failure only leaves the preview out of the dialog.
 */
export const getLevelPreview = (action: LevelAction, program: ProgramId, level: number) =>
  call(ENDPOINT[action], { params: { program, level }, signal: AbortSignal.timeout(PREVIEW_TIMEOUT_MS), quiet: true });
