import { Hono } from "hono";
import { login, revokeToken } from "../../core/sessions";
import { inTransaction } from "../../core/tx";
import { adminReferralId, currentUser, registerUser } from "../../core/users";
import { MSG } from "../../shared/messages";
import { toDollars } from "../../shared/money";
import { loginSchema, registerSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { issueToken } from "../tokens";
import { validate } from "../validate";

export const authRoutes = new Hono<AppEnv>()
  .post("/login", validate("json", loginSchema), async (c) => {
    const { db, hasher, jwtSecret } = c.get("deps");
    const { email, password } = c.req.valid("json");
    const userId = await login(db, hasher, email, password);
    return c.json({ token: await issueToken(jwtSecret, userId) });
  })
  .post("/register", validate("json", registerSchema), async (c) => {
    const { db, hasher } = c.get("deps");
    const input = c.req.valid("json");
    const passwordHash = await hasher.hash(input.password);
    await inTransaction(db, (tx) => registerUser(tx, { ...input, passwordHash }));
    return c.json({ msg: MSG.registered }, 201);
  })
  .get("/admin-referral-id", async (c) => c.json({ referralId: await adminReferralId(c.get("deps").db) }))
  .get("/", requireUser, async (c) => {
    const me = await currentUser(c.get("deps").db, c.get("user").id);
    return c.json({
      _id: me.id,
      name: me.name,
      email: me.email,
      role: me.role,
      balance: toDollars(me.balance),
      pendingWithdrawalsTotal: toDollars(me.held),
      myReferralId: me.myReferralId,
      referredBy: me.referredBy,
      packages: me.packages,
      totalPartners: me.totalPartners,
      directPartners: me.directPartners,
      createdAt: me.createdAt,
    });
  })
  .post("/logout", requireUser, async (c) => {
    await revokeToken(c.get("deps").db, c.get("claims"));
    return c.json({ msg: MSG.loggedOut });
  });
