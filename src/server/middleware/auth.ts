import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { tokenUser, type TokenClaims } from "../../core/sessions";
import { twoFactorOn } from "../../core/twoFactor";
import { readToken } from "../tokens";
import type { AppEnv } from "../env";
import { refusal } from "../errors";

/**
 * Tokens whose signature this process has checked, per secret, with their claims: a token seen
 * again (every request of a session) is not verified again. Only the signature's verdict is
 * kept; expiry is looked at on every use, and revocation is the database's (tokenUser). Bounded:
 * past MAX_VERIFIED entries it starts afresh.
 */
const verified = new Map<string, Map<string, TokenClaims>>();
const MAX_VERIFIED = 10_000;

async function verifiedClaims(secret: string, token: string): Promise<TokenClaims | null> {
  let known = verified.get(secret);
  if (!known) verified.set(secret, (known = new Map()));
  const hit = known.get(token);
  if (hit) return hit.exp > Date.now() / 1000 ? hit : null;
  const claims = await readToken(secret, token);
  if (claims) {
    if (known.size >= MAX_VERIFIED) known.clear();
    known.set(token, claims);
  }
  return claims;
}

/** The caller's token, read and verified (signature, expiry): its claims, or the refusal to answer. */
export async function callerClaims(c: Context<AppEnv>): Promise<TokenClaims | Response> {
  const token = c.req.header("x-auth-token")?.trim();
  if (!token) return refusal(c, "no_token");
  return (await verifiedClaims(c.get("deps").jwtSecret, token)) ?? refusal(c, "bad_token");
}

/** Reads the caller's token into `claims` and `user`; a refusal when there is none or it is not good. */
async function identify(c: Context<AppEnv>): Promise<Response | undefined> {
  const claims = await callerClaims(c);
  if (claims instanceof Response) return claims;
  const user = await tokenUser(c.get("deps").db, claims);
  if (!user) return refusal(c, "bad_token");
  c.set("claims", claims);
  c.set("user", user);
  return undefined;
}

/**
 * The caller must send a valid, unrevoked token of a user who still exists, in x-auth-token.
 *
 * With ADMIN_REQUIRE_2FA=1, an admin whose second factor is off is refused here too (403,
 * "two_factor_required"): such a token reaches only the routes behind `requireSignedIn` (who am
 * I, logout, and the 2FA set-up). The check is made on every request of an admin (a look-up of
 * its own, which members' requests never make), so the same token works everywhere as soon as
 * 2FA is on.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const refused = await identify(c);
  if (refused) return refused;
  const user = c.get("user");
  const { db, config } = c.get("deps");
  if (user.role === "admin" && config.adminRequire2fa && !(await twoFactorOn(db, user.id))) return refusal(c, "two_factor_required");
  await next();
});

/** Like requireUser, but lets an admin who still has to turn 2FA on through: the set-up routes. */
export const requireSignedIn = createMiddleware<AppEnv>(async (c, next) => {
  const refused = await identify(c);
  if (refused) return refused;
  await next();
});

/** Mounted after requireUser: only admins pass. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("user").role !== "admin") return refusal(c, "forbidden");
  await next();
});
