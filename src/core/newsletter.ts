import type { Db } from "../db/client";
import { newsletterSubscribers } from "../db/schema";
import { normalizeEmail } from "./util";

export type Subscription = "subscribed" | "already_subscribed";

/** Stores an address once; subscribing again is not an error, just said. */
export async function subscribe(db: Db, email: string): Promise<Subscription> {
  const inserted = await db
    .insert(newsletterSubscribers)
    .values({ email: normalizeEmail(email) })
    .onConflictDoNothing()
    .returning({ email: newsletterSubscribers.email });
  return inserted.length > 0 ? "subscribed" : "already_subscribed";
}
