import { createMiddleware } from "hono/factory";
import { readToken, tokenUser } from "../../core/sessions";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";

/** The caller must send a valid, unrevoked token of a user who still exists, in x-auth-token. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.req.header("x-auth-token")?.trim();
  if (!token) return c.json({ msg: MSG.noToken }, 401);
  const { db, jwtSecret } = c.get("deps");
  const claims = await readToken(jwtSecret, token);
  const user = claims && (await tokenUser(db, claims));
  if (!claims || !user) return c.json({ msg: MSG.badToken }, 401);
  c.set("claims", claims);
  c.set("user", user);
  await next();
});

/** Mounted after requireUser: only admins pass. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("user").role !== "admin") return c.json({ msg: MSG.adminOnly }, 403);
  await next();
});
