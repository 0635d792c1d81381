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
  return sign({ sub: userId, jti: crypto.randomUUID(), iat: now, exp: now + TOKEN_TTL_SECONDS, ...(generation ? { gen: generation } : {}) }, await hmacKey(secret), "HS256");
}

/** The claims of a token we signed that has not expired; null for anything else. */
export async function readToken(secret: string, token: string): Promise<TokenClaims | null> {
  try {
    const payload = await verify(token, await hmacKey(secret), "HS256");
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || typeof payload.exp !== "number") return null;
    return { sub: payload.sub, jti: payload.jti, exp: payload.exp, ...(typeof payload.gen === "string" ? { gen: payload.gen } : {}) };
  } catch {
    return null;
  }
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/**
 * The secret as an HS256 key, imported once per secret: given the secret as text, hono/jwt
 * imports it again on every call, on every authenticated request (docs/performance.md).
 */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    hmacKeys.set(secret, key);
  }
  return key;
}
