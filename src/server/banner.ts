/**
 * A block of lines set apart from the log in a box, for what the operator must not miss: the
 * first admin's password, a reset password.
 */
export function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "═".repeat(width + 4);
  return ["", `╔${rule}╗`, ...lines.map((l) => `║  ${l.padEnd(width)}  ║`), `╚${rule}╝`, ""].join("\n");
}

/** The admin created by the first start, with the random password shown this once. */
export function firstAdminBanner(email: string, password: string): string {
  return boxed([
    "FIRST START: the admin account was created.",
    "",
    `  email:     ${email}`,
    `  password:  ${password}`,
    "",
    "This password is shown once. Sign in and keep it somewhere safe.",
    "Lost it? On this machine: bun run admin:reset-password",
    "(the single executable: ./matrix-usdt --reset-admin-password).",
  ]);
}

/** The answer of an admin password reset. */
export function resetBanner(reset: { email: string; password: string; generated: boolean; twoFactorOff: boolean }): string {
  return boxed([
    `The password of the admin ${reset.email} was reset.`,
    "",
    `  email:     ${reset.email}`,
    `  password:  ${reset.generated ? reset.password : "(the one in ADMIN_PASSWORD)"}`,
    "",
    "Every session of this admin was signed out.",
    ...(reset.twoFactorOff ? ["Two-factor authentication is off: turn it on again on the Security page."] : []),
    ...(reset.generated ? ["This password is shown once. Sign in and keep it somewhere safe."] : []),
  ]);
}
