import { Hono } from "hono";
import { z } from "zod";
import { partnersOf, transactionsOf } from "../../core/statement";
import { toDollars } from "../../shared/money";
import type { AppEnv } from "../env";
import { validate } from "../validate";

const PAGE_MSG = "Page must be a whole number from 1.";
const pageQuery = z.object({
  page: z.coerce.number({ error: PAGE_MSG }).int(PAGE_MSG).min(1, PAGE_MSG).max(1_000_000, PAGE_MSG).default(1),
});

/** The caller's team and ledger history. Mounted under /user behind requireUser. */
export const statementRoutes = new Hono<AppEnv>()
  .get("/partners", validate("query", pageQuery), async (c) => {
    const result = await partnersOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page);
    return c.json({ ...result, partners: result.partners.map((p) => ({ ...p, joinedAt: p.joinedAt.toISOString() })) });
  })
  .get("/transactions", validate("query", pageQuery), async (c) => {
    const result = await transactionsOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page);
    return c.json({
      ...result,
      transactions: result.transactions.map((t) => ({
        ...t,
        createdAt: t.createdAt.toISOString(),
        amount: toDollars(t.amount),
        balanceAfter: toDollars(t.balanceAfter),
      })),
    });
  });
