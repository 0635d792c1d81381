import { Hono } from "hono";
import { hasOwnAddresses, isVerified } from "../../core/chain/config";
import { depositAddressOf } from "../../core/chain/ownAddresses";
import { Refusal } from "../../core/errors";
import { countRecipientMiss, findReferrer, refuseRecipientLookup, searchUsers } from "../../core/users";
import { cancelWithdrawal, requestDeposit, requestWithdrawal, sendGift } from "../../core/wallet";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { idempotency, transact } from "../transact";
import { validate } from "../validate";

/** Everything a signed-in user does with their own account. Behind requireUser (/user/*). */
export const userRoutes = new Hono<AppEnv>()
  .get(API.referrer.path, async (c) =>
    reply(c, API.referrer, await findReferrer(c.get("deps").db, c.req.param("referralId"), c.get("user").id)),
  )
  .post(API.deposit.path, idempotency, validate("json", API.deposit.body), async (c) => {
    const input = c.req.valid("json");
    const { config, chainWatcher } = c.get("deps");
    // A transfer to a member's own address is credited to that member by the watcher alone: never through a claim.
    if (hasOwnAddresses(config.chain.networks[input.network])) throw new Refusal("use_deposit_address");
    // A network verified on chain: the watcher looks at the new request at once (src/server/chainWatcher.ts).
    const onChain = isVerified(config.chain.networks[input.network]);
    const answer = await transact(
      c,
      API.deposit,
      (tx) => requestDeposit(tx, c.get("user").id, input, { checkOnChain: onChain }),
      () => ({ msg: onChain ? MSG.depositSubmittedOnChain : MSG.depositSubmitted }),
    );
    if (onChain && answer.status === 201) chainWatcher?.poke();
    return answer;
  })
  .get(API.depositAddress.path, validate("query", API.depositAddress.query), async (c) => {
    const { db, config } = c.get("deps");
    return reply(c, API.depositAddress, await depositAddressOf(db, c.get("user").id, config.chain, c.req.valid("query").network));
  })
  .post(API.withdraw.path, idempotency, validate("json", API.withdraw.body), (c) =>
    transact(
      c,
      API.withdraw,
      (tx) => requestWithdrawal(tx, c.get("user").id, c.req.valid("json"), { verifiedEmail: c.get("deps").config.verifiedEmailToWithdraw }),
      () => ({ msg: MSG.withdrawalSubmitted }),
    ),
  )
  .post(API.cancelWithdrawal.path, idempotency, (c) =>
    transact(
      c,
      API.cancelWithdrawal,
      (tx) => cancelWithdrawal(tx, c.get("user").id, c.req.param("id")),
      () => ({ msg: MSG.withdrawalCancelled }),
    ),
  )
  .get(API.searchUsers.path, validate("query", API.searchUsers.query), async (c) =>
    reply(c, API.searchUsers, await searchUsers(c.get("deps").db, c.req.valid("query").search, c.get("user").id)),
  )
  .post(API.gift.path, idempotency, validate("json", API.gift.body), async (c) => {
    const { db } = c.get("deps");
    const sender = c.get("user").id;
    // The recipient is looked up as a search is (src/core/users.ts refuseRecipientLookup).
    await refuseRecipientLookup(db, sender);
    try {
      return await transact(c, API.gift, (tx) => sendGift(tx, sender, c.req.valid("json")), () => ({ msg: MSG.giftSent }));
    } catch (error) {
      if (error instanceof Refusal && error.code === "recipient_not_found") await countRecipientMiss(db, sender);
      throw error;
    }
  });
