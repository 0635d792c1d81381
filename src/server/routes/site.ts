import { Hono } from "hono";
import { subscribe } from "../../core/newsletter";
import { MSG } from "../../shared/messages";
import { newsletterSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { validate } from "../validate";

/** Public odds and ends the web client needs. */
export const siteRoutes = new Hono<AppEnv>()
  .get("/config", (c) => {
    const { depositWalletAddress } = c.get("deps").config;
    return c.json({ depositWalletAddress });
  })
  .post("/newsletter", validate("json", newsletterSchema), async (c) => {
    const subscription = await subscribe(c.get("deps").db, c.req.valid("json").email);
    return c.json({ msg: subscription === "subscribed" ? MSG.subscribed : MSG.alreadySubscribed }, 201);
  });
