import { eq } from "drizzle-orm";
import { createAccount, EXTERNAL, SYSTEM } from "../core/ledger";
import { defaultLevels } from "../core/levels";
import { randomPassword, type PasswordHasher } from "../core/sessions";
import { inTransaction } from "../core/tx";
import { countOnTheWayUp } from "../core/teams";
import { newId, newReferralId } from "../core/util";
import type { Db } from "./client";
import { programLevels, settings, teamCounts, users } from "./schema";

export interface SeedOptions {
  adminEmail?: string;
  adminPassword?: string;
  hasher: PasswordHasher;
}

/** The admin a first start created; `password` only when it was made up here (to be shown once). */
export interface CreatedAdmin {
  email: string;
  password?: string;
}

/**
 * First start: the operator accounts, the default levels and the admin. Nothing twice. Answers
 * the admin when this call created it, so the caller can show a random password (last, and
 * boxed: src/server/banner.ts).
 */
export async function seed(db: Db, options: SeedOptions): Promise<{ createdAdmin?: CreatedAdmin }> {
  return inTransaction(db, async (tx) => {
    // Two processes starting together on one Postgres: the second waits here for the first.
    await tx.insert(settings).values({ key: "seeded", value: new Date().toISOString() }).onConflictDoNothing();
    await createAccount(tx, SYSTEM, "system");
    await createAccount(tx, EXTERNAL, "external");
    await tx.insert(programLevels).values(defaultLevels()).onConflictDoNothing();

    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
    if (admin) return {};
    const email = options.adminEmail ?? "admin@localhost";
    const password = options.adminPassword ?? randomPassword();
    const id = newId();
    await tx.insert(users).values({
      id,
      name: "Admin",
      email,
      passwordHash: await options.hasher.hash(password),
      role: "admin",
      referralId: newReferralId(),
      chainId: id,
      // The operator's own address (ADMIN_EMAIL): nothing to confirm.
      emailVerifiedAt: new Date(),
    });
    await createAccount(tx, id, "user");
    await tx.insert(teamCounts).values({ userId: id });
    await countOnTheWayUp(tx, id, 1);
    return { createdAdmin: options.adminPassword ? { email } : { email, password } };
  });
}
