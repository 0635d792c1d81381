import { Hono } from "hono";
import { z } from "zod";
import { inTransaction } from "../../core/tx";
import { deleteUser, listUsers } from "../../core/users";
import { adminGift, decideDeposit, decideWithdrawal, listDeposits, listWithdrawals } from "../../core/wallet";
import { USER_PAGE_SIZE } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { adminGiftSchema, decisionSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { dollars } from "../serialize";
import { validate } from "../validate";

const historyQuery = z.object({
  status: z.enum(["pending", "accepted", "declined"], { error: "Status must be pending, accepted or declined." }).optional(),
  search: z.string().trim().max(100, "Search text must be at most 100 characters.").optional(),
});

const pageQuery = z.object({
  page: z.coerce.number({ error: "Page must be a whole number from 1." }).int("Page must be a whole number from 1.").min(1, "Page must be a whole number from 1.").default(1),
  limit: z.coerce.number({ error: "Limit must be between 1 and 100." }).int("Limit must be between 1 and 100.").min(1, "Limit must be between 1 and 100.").max(100, "Limit must be between 1 and 100.").default(USER_PAGE_SIZE),
  search: z.string().trim().max(100, "Search text must be at most 100 characters.").optional(),
});

/** Admin-only routes. Mounted behind requireUser and requireAdmin. */
export const adminRoutes = new Hono<AppEnv>()
  .get("/deposits", validate("query", historyQuery), async (c) => {
    const rows = await listDeposits(c.get("deps").db, c.req.valid("query"));
    return c.json(rows.map((r) => dollars(r, ["amount"])));
  })
  .get("/withdrawals", validate("query", historyQuery), async (c) => {
    const rows = await listWithdrawals(c.get("deps").db, c.req.valid("query"));
    return c.json(rows.map((r) => dollars(r, ["amount", "fee"])));
  })
  .put("/deposits/:id", validate("json", decisionSchema), async (c) => {
    const { status } = c.req.valid("json");
    await inTransaction(c.get("deps").db, (tx) => decideDeposit(tx, c.req.param("id"), status, c.get("user").id));
    return c.json({ msg: MSG.requestDecided(status) });
  })
  .put("/withdrawals/:id", validate("json", decisionSchema), async (c) => {
    const { status } = c.req.valid("json");
    await inTransaction(c.get("deps").db, (tx) => decideWithdrawal(tx, c.req.param("id"), status, c.get("user").id));
    return c.json({ msg: MSG.requestDecided(status) });
  })
  .get("/users", validate("query", pageQuery), async (c) => {
    const { users, totalPages } = await listUsers(c.get("deps").db, c.req.valid("query"));
    return c.json({ users: users.map((u) => dollars(u, ["balance"])), totalPages });
  })
  .delete("/users/:id", async (c) => {
    await inTransaction(c.get("deps").db, (tx) => deleteUser(tx, c.req.param("id")));
    return c.json({ msg: MSG.userDeleted });
  })
  .post("/users/:id/gift", validate("json", adminGiftSchema), async (c) => {
    await inTransaction(c.get("deps").db, (tx) => adminGift(tx, c.req.param("id"), c.req.valid("json").amount));
    return c.json({ msg: MSG.adminGiftSent });
  });
