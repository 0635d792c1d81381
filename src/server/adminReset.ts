import { argon2Hasher, resetAdminPassword, type AdminReset } from "../core/sessions";
import type { Config } from "./config";
import { resetBanner } from "./banner";
import { prepare } from "./start";

/** With --reset-admin-password (or the script): also turn the admin's two-factor off. */
export const DISABLE_2FA_FLAG = "--disable-2fa";

/**
 * Resets the admin's password from the server's machine: `bun run admin:reset-password`
 * (scripts/admin-reset-password.ts) and the binary's `--reset-admin-password` both come here.
 * Opens the database the server would (DATABASE_URL, else PGlite in DATA_DIR; a fresh one is
 * migrated and seeded first), sets ADMIN_PASSWORD or a new random password, signs the admin out
 * everywhere, and prints the password boxed. On the embedded database the server must be
 * stopped first: one process at a time may open a data folder.
 */
export async function resetAdminFromMachine(
  config: Config,
  options: { disableTwoFactor?: boolean; print?: (text: string) => void } = {},
): Promise<AdminReset> {
  const { database } = await prepare(config);
  try {
    const reset = await resetAdminPassword(database.db, argon2Hasher(), {
      email: config.adminEmail,
      password: config.adminPassword,
      disableTwoFactor: options.disableTwoFactor,
    });
    (options.print ?? console.log)(resetBanner(reset));
    return reset;
  } finally {
    await database.close();
  }
}
