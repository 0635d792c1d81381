import type { Db } from "../db/client";
import { newsletterSubscribers } from "../db/schema";
import { MSG } from "../shared/messages";

/** Stores an address once; subscribing again is not an error, just said. */
export async function subscribe(db: Db, email: string): Promise<string> {
  const inserted = await db
    .insert(newsletterSubscribers)
    .values({ email: email.trim().toLowerCase() })
    .onConflictDoNothing()
    .returning({ email: newsletterSubscribers.email });
  return inserted.length > 0 ? MSG.subscribed : MSG.alreadySubscribed;
}
