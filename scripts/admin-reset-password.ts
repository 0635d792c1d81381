/**
 * `bun run admin:reset-password [--disable-2fa]`: a new password for the admin, from the
 * server's machine, on the database the server uses (DATABASE_URL, else PGlite in DATA_DIR;
 * stop the server first on PGlite). Prints a random password, or sets ADMIN_PASSWORD when it is
 * given, and signs the admin out everywhere. ADMIN_EMAIL picks the admin when there are several.
 * The single executable does the same with `--reset-admin-password`.
 */
import { DISABLE_2FA_FLAG, resetAdminFromMachine } from "../src/server/adminReset";
import { loadConfig } from "../src/server/config";

const USAGE = `Usage: bun run admin:reset-password [${DISABLE_2FA_FLAG}]

A new password for the admin, on the database the server uses (DATABASE_URL, else the embedded
database in DATA_DIR: stop the server first). ADMIN_PASSWORD sets that one, else a random one is
printed. ADMIN_EMAIL picks the admin when there are several. The admin is signed out everywhere.
  ${DISABLE_2FA_FLAG}  also turn the admin's two-factor authentication off (a lost phone)`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
// A misspelt flag would otherwise reset the password all the same.
const unknown = args.find((arg) => arg !== DISABLE_2FA_FLAG);
if (unknown !== undefined) {
  console.error(`Unknown option ${unknown}: the password was not reset (see --help).`);
  process.exit(2);
}

try {
  await resetAdminFromMachine(loadConfig(), { disableTwoFactor: process.argv.includes(DISABLE_2FA_FLAG) });
  process.exit(0);
} catch (error) {
  console.error(`The admin password was not reset: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
