import { Hono } from "hono";
import { hasOwnAddresses, isVerified } from "../../core/chain/config";
import { inviterName } from "../../core/inviters";
import { subscribe } from "../../core/newsletter";
import { NETWORKS } from "../../shared/chain";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";
import { sourceAddress } from "../middleware/source";
import { reply } from "../reply";
import { validate } from "../validate";

/** Public odds and ends the web client needs. */
export const siteRoutes = new Hono<AppEnv>()
  .get(API.config.path, (c) => {
    const { config } = c.get("deps");
    return reply(c, API.config, {
      depositWalletAddress: config.depositWalletAddress,
      networks: NETWORKS.map((network) => {
        const settings = config.chain.networks[network];
        return {
          network,
          depositAddress: settings.depositAddress,
          verified: isVerified(settings) || hasOwnAddresses(settings),
          confirmations: settings.confirmations,
          ownAddresses: hasOwnAddresses(settings),
        };
      }),
    });
  })
  .post(API.newsletter.path, validate("json", API.newsletter.body), async (c) => {
    const subscription = await subscribe(c.get("deps").db, c.req.valid("json").email, sourceAddress(c));
    return reply(c, API.newsletter, { msg: subscription === "subscribed" ? MSG.subscribed : MSG.alreadySubscribed });
  })
  // The register page names the inviter; unknown IDs are limited per address as sign-ups are.
  .get(API.inviter.path, async (c) => {
    const { db, config } = c.get("deps");
    return reply(c, API.inviter, await inviterName(db, c.req.param("referralId"), sourceAddress(c), config.signupLimit));
  });
