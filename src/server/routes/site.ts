import { Hono } from "hono";
import { subscribe } from "../../core/newsletter";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { validate } from "../validate";

/** Public odds and ends the web client needs. */
export const siteRoutes = new Hono<AppEnv>()
  .get(API.config.path, (c) => reply(c, API.config, { depositWalletAddress: c.get("deps").config.depositWalletAddress }))
  .post(API.newsletter.path, validate("json", API.newsletter.body), async (c) => {
    const subscription = await subscribe(c.get("deps").db, c.req.valid("json").email);
    return reply(c, API.newsletter, { msg: subscription === "subscribed" ? MSG.subscribed : MSG.alreadySubscribed });
  });
