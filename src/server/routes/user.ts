import { Hono } from "hono";
import { z } from "zod";
import { findReferrer, searchUsers } from "../../core/users";
import { requestDeposit, requestWithdrawal, sendGift } from "../../core/wallet";
import { SEARCH_MIN_LENGTH } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { depositSchema, giftSchema, withdrawSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { idempotency, transact } from "../transact";
import { validate } from "../validate";

const searchQuery = z.object({
  search: z
    .string({ error: MSG.searchTooShort })
    .trim()
    .min(SEARCH_MIN_LENGTH, MSG.searchTooShort)
    .max(100, "Search text must be at most 100 characters."),
});

/** Everything a signed-in user does with their own account. Mounted behind requireUser. */
export const userRoutes = new Hono<AppEnv>()
  .get("/details/:referralId", async (c) => c.json(await findReferrer(c.get("deps").db, c.req.param("referralId"), c.get("user").id)))
  .post("/deposit", idempotency, validate("json", depositSchema), (c) =>
    transact(
      c,
      (tx) => requestDeposit(tx, c.get("user").id, c.req.valid("json")),
      () => ({ body: { msg: MSG.depositSubmitted }, status: 201 }),
    ),
  )
  .post("/withdraw", idempotency, validate("json", withdrawSchema), (c) =>
    transact(
      c,
      (tx) => requestWithdrawal(tx, c.get("user").id, c.req.valid("json")),
      () => ({ body: { msg: MSG.withdrawalSubmitted }, status: 201 }),
    ),
  )
  .get("/search", validate("query", searchQuery), async (c) =>
    c.json(await searchUsers(c.get("deps").db, c.req.valid("query").search, c.get("user").id)),
  )
  .post("/gift", idempotency, validate("json", giftSchema), (c) =>
    transact(
      c,
      (tx) => sendGift(tx, c.get("user").id, c.req.valid("json")),
      () => ({ body: { msg: MSG.giftSent } }),
    ),
  );
