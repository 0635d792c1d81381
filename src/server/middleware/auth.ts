import { createMiddleware } from "hono/factory";
import { tokenUser } from "../../core/sessions";
import { readToken } from "../tokens";
import type { AppEnv } from "../env";
import { refusal } from "../errors";

/** The caller must send a valid, unrevoked token of a user who still exists, in x-auth-token. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.req.header("x-auth-token")?.trim();
  if (!token) return refusal(c, "no_token");
  const { db, jwtSecret } = c.get("deps");
  const claims = await readToken(jwtSecret, token);
  const user = claims && (await tokenUser(db, claims));
  if (!claims || !user) return refusal(c, "bad_token");
  c.set("claims", claims);
  c.set("user", user);
  await next();
});

/** Mounted after requireUser: only admins pass. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("user").role !== "admin") return refusal(c, "forbidden");
  await next();
});
