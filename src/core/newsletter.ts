import type { Db } from "../db/client";
import { newsletterSubscribers } from "../db/schema";
import { NEWSLETTER_PER_HOUR } from "../shared/constants";
import { MSG } from "../shared/messages";
import { HOUR_SECONDS, takeHit } from "./throttle";
import { normalizeEmail } from "./util";

export type Subscription = "subscribed" | "already_subscribed";

/**
 * Stores an address once; subscribing again is not an error, just said. NEWSLETTER_PER_HOUR
 * addresses an hour from one source address (`source`, as the login throttle counts it), new or
 * not: past it 429 `throttled`. Nobody can fill the list with other people's addresses, or learn
 * which addresses are on it, faster than that.
 */
export async function subscribe(db: Db, email: string, source: string): Promise<Subscription> {
  await takeHit(db, { bucket: "newsletter", max: NEWSLETTER_PER_HOUR, windowSeconds: HOUR_SECONDS }, source, MSG.tooManySubscriptions);
  const inserted = await db
    .insert(newsletterSubscribers)
    .values({ email: normalizeEmail(email) })
    .onConflictDoNothing()
    .returning({ email: newsletterSubscribers.email });
  return inserted.length > 0 ? "subscribed" : "already_subscribed";
}
