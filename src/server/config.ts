/** Everything the server reads from the environment, in one place. */
export interface Config {
  port: number;
  databaseUrl?: string;
  dataDir: string;
  jwtSecret?: string;
  adminEmail?: string;
  adminPassword?: string;
  depositWalletAddress: string;
  /** Origins allowed to call the API from a browser; empty means same origin only. */
  corsOrigins: string[];
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
}

export const CONFIG_HELP: [name: string, meaning: string, fallback: string][] = [
  ["PORT", "HTTP port", "3000"],
  ["DATABASE_URL", "Postgres connection string; unset runs on embedded PGlite", "(unset)"],
  ["DATA_DIR", "PGlite data folder when DATABASE_URL is unset", "./data"],
  ["JWT_SECRET", "secret that signs tokens; unset: generated at first start and kept in the database", "(generated)"],
  ["ADMIN_EMAIL", "e-mail of the admin created at first start", "admin@localhost"],
  ["ADMIN_PASSWORD", "password of that admin; unset: random, printed once in the log", "(random)"],
  ["DEPOSIT_WALLET_ADDRESS", "wallet address shown on the deposit page", "(demo address)"],
  ["CORS_ORIGINS", "comma-separated origins allowed to call /api from other sites", "(same origin only)"],
];

export const DEMO_WALLET_ADDRESS = "TQ5dEmoWa11etAddre55NotForRea1Funds";

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || "./data",
    jwtSecret: env.JWT_SECRET || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    depositWalletAddress: env.DEPOSIT_WALLET_ADDRESS || DEMO_WALLET_ADDRESS,
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    bodyLimit: 64 * 1024,
  };
}
