import { sign, verify } from "hono/jwt";
import type { TokenClaims } from "../core/sessions";
import { TOKEN_TTL_SECONDS } from "../shared/constants";

/**
 * Signing and reading the session JWTs (HS256). The server's side of sessions: core/sessions.ts
 * keeps what is about the database (revocation, login throttling, the secret).
 */
export type { TokenClaims };

/**
 * A session token for `userId`. `generation` is the user's session generation
 * (core/sessions.ts `sessionGeneration`): a token of an older one is refused, which is how an
 * admin password reset signs the admin out everywhere.
 */
export async function issueToken(secret: string, userId: string, generation?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: userId, jti: crypto.randomUUID(), iat: now, exp: now + TOKEN_TTL_SECONDS, ...(generation ? { gen: generation } : {}) }, secret, "HS256");
}

/** The claims of a token we signed that has not expired; null for anything else. */
export async function readToken(secret: string, token: string): Promise<TokenClaims | null> {
  try {
    const payload = await verify(token, secret, "HS256");
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || typeof payload.exp !== "number") return null;
    return { sub: payload.sub, jti: payload.jti, exp: payload.exp, ...(typeof payload.gen === "string" ? { gen: payload.gen } : {}) };
  } catch {
    return null;
  }
}
