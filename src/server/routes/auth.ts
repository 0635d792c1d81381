import { Hono } from "hono";
import { login, revokeToken } from "../../core/sessions";
import { inTransaction } from "../../core/tx";
import { adminReferralId, currentUser, registerUser } from "../../core/users";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { reply } from "../reply";
import { issueToken } from "../tokens";
import { validate } from "../validate";

export const authRoutes = new Hono<AppEnv>()
  .post(API.login.path, validate("json", API.login.body), async (c) => {
    const { db, hasher, jwtSecret } = c.get("deps");
    const { email, password } = c.req.valid("json");
    const userId = await login(db, hasher, email, password);
    return reply(c, API.login, { token: await issueToken(jwtSecret, userId) });
  })
  .post(API.register.path, validate("json", API.register.body), async (c) => {
    const { db, hasher } = c.get("deps");
    const input = c.req.valid("json");
    const passwordHash = await hasher.hash(input.password);
    await inTransaction(db, (tx) => registerUser(tx, { ...input, passwordHash }));
    return reply(c, API.register, { msg: MSG.registered });
  })
  .get(API.adminReferralId.path, async (c) => reply(c, API.adminReferralId, { referralId: await adminReferralId(c.get("deps").db) }))
  .get(API.me.path, requireUser, async (c) => {
    const { held, ...me } = await currentUser(c.get("deps").db, c.get("user").id);
    return reply(c, API.me, { ...me, pendingWithdrawalsTotal: held });
  })
  .post(API.logout.path, requireUser, async (c) => {
    await revokeToken(c.get("deps").db, c.get("claims"));
    return reply(c, API.logout, { msg: MSG.loggedOut });
  });
