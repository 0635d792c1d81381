import { Hono } from "hono";
import { partnersOf, transactionsOf } from "../../core/statement";
import { API } from "../../shared/contract";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { validate } from "../validate";

/** The caller's team and ledger history. Behind requireUser (/user/*). */
export const statementRoutes = new Hono<AppEnv>()
  .get(API.partners.path, validate("query", API.partners.query), async (c) =>
    reply(c, API.partners, await partnersOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page)),
  )
  .get(API.transactions.path, validate("query", API.transactions.query), async (c) =>
    reply(c, API.transactions, await transactionsOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page)),
  );
