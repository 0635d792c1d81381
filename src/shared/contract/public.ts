import * as z from "zod/mini";
import { NETWORKS } from "../chain";
import * as S from "../schemas";
import { endpoint, message, money } from "./wire";

/** What anyone may read: the level prices, the site's settings, the newsletter. */


/** One network a deposit can be sent on, as the deposit page shows it. */
export const depositNetwork = z.object({
  network: z.enum(NETWORKS),
  /** Our address on that network: where members send USDT. */
  depositAddress: z.string(),
  /** Whether deposits on it are verified on chain and credited without an admin. */
  verified: z.boolean(),
  /** Confirmations a transfer needs before it is credited. */
  confirmations: z.int(),
  /** Members get an address of their own on it (GET /api/user/deposit/address), credited by the chain; claims are refused. */
  ownAddresses: z.boolean(),
});

export const siteConfig = z.object({
  /** The TRC20 deposit address (what the earlier client shows). */
  depositWalletAddress: z.string(),
  /** Every network a deposit can be sent on, TRC20 first. */
  networks: z.array(depositNetwork),
});

/** Whose referral ID it is, for the register page: the name alone (anyone may ask). */
export const inviter = z.object({ name: z.string() });

export const levelPrice = z.object({ level: z.int(), cost: money, unfreezeCost: money });
export const levelPrices = z.array(levelPrice);


export const PUBLIC = {
  levels: endpoint({ method: "GET", path: "/programs/:program/levels", response: levelPrices }),
  config: endpoint({ method: "GET", path: "/config", response: siteConfig }),
  newsletter: endpoint({ method: "POST", path: "/newsletter", body: S.newsletterSchema, response: message, status: 201 }),
  inviter: endpoint({ method: "GET", path: "/referrers/:referralId", response: inviter }),
} as const;
