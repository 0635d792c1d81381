import { Hono } from "hono";
import { z } from "zod";
import { decideRequest, giftFromSystem, removeUser } from "../../core/admin";
import { listAudit } from "../../core/audit";
import { listUsers } from "../../core/users";
import { listDeposits, listWithdrawals } from "../../core/wallet";
import { USER_PAGE_SIZE } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { adminGiftSchema, decisionSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { dollars } from "../serialize";
import { idempotency, transact } from "../transact";
import { validate } from "../validate";

const historyQuery = z.object({
  status: z.enum(["pending", "accepted", "declined"], { error: "Status must be pending, accepted or declined." }).optional(),
  search: z.string().trim().max(100, "Search text must be at most 100 characters.").optional(),
});

const page = z.coerce
  .number({ error: "Page must be a whole number from 1." })
  .int("Page must be a whole number from 1.")
  .min(1, "Page must be a whole number from 1.")
  .default(1);
const auditQuery = z.object({ page });

const pageQuery = z.object({
  page,
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
  .put("/deposits/:id", idempotency, validate("json", decisionSchema), (c) => {
    const { status } = c.req.valid("json");
    return transact(
      c,
      (tx) => decideRequest(tx, c.get("user").id, "deposit", c.req.param("id"), status),
      () => ({ body: { msg: MSG.requestDecided(status) } }),
    );
  })
  .put("/withdrawals/:id", idempotency, validate("json", decisionSchema), (c) => {
    const { status } = c.req.valid("json");
    return transact(
      c,
      (tx) => decideRequest(tx, c.get("user").id, "withdrawal", c.req.param("id"), status),
      () => ({ body: { msg: MSG.requestDecided(status) } }),
    );
  })
  .get("/users", validate("query", pageQuery), async (c) => {
    const { users, totalPages } = await listUsers(c.get("deps").db, c.req.valid("query"));
    return c.json({ users: users.map((u) => dollars(u, ["balance"])), totalPages });
  })
  .delete("/users/:id", (c) =>
    transact(
      c,
      (tx) => removeUser(tx, c.get("user").id, c.req.param("id")),
      () => ({ body: { msg: MSG.userDeleted } }),
    ),
  )
  .post("/users/:id/gift", idempotency, validate("json", adminGiftSchema), (c) =>
    transact(
      c,
      (tx) => giftFromSystem(tx, c.get("user").id, c.req.param("id"), c.req.valid("json").amount),
      () => ({ body: { msg: MSG.adminGiftSent } }),
    ),
  )
  .get("/audit", validate("query", auditQuery), async (c) => c.json(await listAudit(c.get("deps").db, c.req.valid("query").page)));
