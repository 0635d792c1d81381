import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { MSG } from "../shared/messages";
import { CONTROL_CHARACTERS } from "../shared/schemas";
import { refuse } from "./errors";
import { HOUR_SECONDS, minutesOf, recentHits, takeHit } from "./throttle";
import { normalizeReferralId } from "./util";

/** Referral IDs that named no one, per source address: counted as sign-ups are, by the hour. */
const LOOKUP_BUCKET = "referral_lookup";

/**
 * The name of the member whose referral ID this is (not deleted), for the register page: "Joining
 * under Alice Smith (REF123)". Anyone may ask, so it answers the name alone, and a source address
 * that has looked up `maxMisses` IDs nobody has within the hour (SIGNUP_LIMIT, as sign-ups) is
 * refused every lookup (429 `throttled`) until the hour frees one: IDs cannot be walked to names.
 * An ID that names no one is refused as registering with it would be (`invalid_referral`).
 */
export async function inviterName(db: Db, referralId: string, source: string, maxMisses: number): Promise<{ name: string }> {
  if (maxMisses > 0) {
    const { n, retryAfter } = await recentHits(db, LOOKUP_BUCKET, source, HOUR_SECONDS);
    if (n >= maxMisses) return refuse("throttled", MSG.tooManyReferralLookups(minutesOf(retryAfter)), retryAfter);
  }
  const id = normalizeReferralId(referralId);
  const [row] =
    id.length > 0 && id.length <= 64 && !CONTROL_CHARACTERS.test(id)
      ? await db.select({ name: users.name }).from(users).where(and(eq(users.referralId, id), isNull(users.deletedAt)))
      : [];
  if (row) return row;
  // takeHit rather than a bare insert: it also sweeps the bucket's expired rows now and then.
  await takeHit(db, { bucket: LOOKUP_BUCKET, max: maxMisses, windowSeconds: HOUR_SECONDS }, source, MSG.tooManyReferralLookups);
  return refuse("invalid_referral");
}
