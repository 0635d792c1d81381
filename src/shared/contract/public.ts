import * as z from "zod/mini";
import * as S from "../schemas";
import { endpoint, message, money } from "./wire";

/** What anyone may read: the level prices, the site's settings, the newsletter. */


export const siteConfig = z.object({ depositWalletAddress: z.string() });

export const levelPrice = z.object({ level: z.int(), cost: money, unfreezeCost: money });
export const levelPrices = z.array(levelPrice);


export const PUBLIC = {
  levels: endpoint({ method: "GET", path: "/programs/:program/levels", response: levelPrices }),
  config: endpoint({ method: "GET", path: "/config", response: siteConfig }),
  newsletter: endpoint({ method: "POST", path: "/newsletter", body: S.newsletterSchema, response: message, status: 201 }),
} as const;
