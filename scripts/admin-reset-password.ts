/**
 * `bun run admin:reset-password [--disable-2fa]`: a new password for the admin, from the
 * server's machine, on the database the server uses (DATABASE_URL, else PGlite in DATA_DIR;
 * stop the server first on PGlite). Prints a random password, or sets ADMIN_PASSWORD when it is
 * given, and signs the admin out everywhere. ADMIN_EMAIL picks the admin when there are several.
 * The single executable does the same with `--reset-admin-password`.
 */
import { DISABLE_2FA_FLAG, resetAdminFromMachine } from "../src/server/adminReset";
import { loadConfig } from "../src/server/config";

try {
  await resetAdminFromMachine(loadConfig(), { disableTwoFactor: process.argv.includes(DISABLE_2FA_FLAG) });
  process.exit(0);
} catch (error) {
  console.error(`The admin password was not reset: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
