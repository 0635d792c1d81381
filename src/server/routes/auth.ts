import type { Context } from "hono";
import { Hono } from "hono";
import { signalStreamsClosed } from "../../core/notifications";
import { login, type LoginUser, revokeToken, type TrustedDevice } from "../../core/sessions";
import { queueMail } from "../../core/mail/outbox";
import { oneOfFewFrom, provePassword } from "../passwordWork";
import { accountRoutes } from "./account";
import { HOUR_SECONDS, takeHit } from "../../core/throttle";
import { beginSetup, disable, enable, finishLogin, startLogin, twoFactorStatus } from "../../core/twoFactor";
import { adminReferralId, memberForToken, refuseHopelessSignUp, signUp, type SignedInMember } from "../../core/users";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { AppEnv } from "../env";
import { refusal } from "../errors";
import { callerClaims, requireSignedIn } from "../middleware/auth";
import { sourceAddress } from "../middleware/source";
import { trustDevice, trustedDevice } from "../deviceTrust";
import { reply, wire } from "../reply";
import { issueToken } from "../tokens";
import { validate } from "../validate";


/**
 * GET /api/auth answers, as encoded through the contract (`wire`), by the member's state (every
 * value the answer is made of: memberForToken). Encoding is a pure function of that state, so an
 * equal state gets the same text without encoding it again; a dashboard asks again and again
 * between two changes of its member. Bounded: the oldest go first. Nothing here is needed by
 * another process, or outlives a change (docs/rules.md#several-processes).
 */
const encoded = new Map<string, string>();
const MAX_ENCODED = 2_000;

function encodedMember(found: SignedInMember): string {
  let text = encoded.get(found.state);
  if (text === undefined) {
    const { held, ...me } = found.member();
    text = JSON.stringify(wire(API.me, { ...me, pendingWithdrawalsTotal: held }));
    if (encoded.size >= MAX_ENCODED) encoded.delete(encoded.keys().next().value!);
    encoded.set(found.state, text);
  }
  return text;
}

/**
 * The answer to a login that succeeded in full: a session token of the session generation the
 * login was checked in (`LoginUser`), and the caller's device trusted for the user in it. A
 * browser that never signed in to this account before (`device`: what its trusted_device cookie
 * said, whatever the generation) gets the member a security mail.
 */
async function signedIn(c: Context<AppEnv>, user: LoginUser, device: TrustedDevice | undefined): Promise<string> {
  const { db, jwtSecret, mailer } = c.get("deps");
  if (device?.userId !== user.id) {
    const browser = (c.req.header("user-agent") ?? "").slice(0, 200) || "unknown";
    await queueMail(db, { causeKey: `signin:${user.id}:${crypto.randomUUID()}`, userId: user.id, template: "new_signin", data: { source: sourceAddress(c), browser } });
    mailer?.kick();
  }
  await trustDevice(c, user.id, user.generation);
  return issueToken(jwtSecret, user.id, user.generation);
}


/**
 * Signing in (password, then the second factor when it is on), signing up (limited per source
 * address: SIGNUP_LIMIT an hour), the second factor's set-up, and the signed-in user.
 *
 * Who-am-I, logout and the 2FA routes are behind `requireSignedIn` (who-am-I makes the same
 * check inside its one statement), so that with ADMIN_REQUIRE_2FA an admin who has not turned
 * 2FA on yet can still reach them (and nothing else).
 */
export const authRoutes = new Hono<AppEnv>()
  .post(API.login.path, validate("json", API.login.body), async (c) => {
    const { db, hasher, config } = c.get("deps");
    const { email, password } = c.req.valid("json");
    const source = sourceAddress(c);
    const device = await trustedDevice(c);
    const user = await oneOfFewFrom(source, config.loginChecksPerSource, () => login(db, hasher, email, password, source, device));
    const ticket = await startLogin(db, user);
    if (ticket) return reply(c, API.login, { twoFactorRequired: true, ticket });
    return reply(c, API.login, { token: await signedIn(c, user, device) });
  })
  .post(API.loginTwoFactor.path, validate("json", API.loginTwoFactor.body), async (c) => {
    const { ticket, code } = c.req.valid("json");
    const device = await trustedDevice(c);
    const user = await finishLogin(c.get("deps").db, ticket, code, sourceAddress(c), device);
    return reply(c, API.loginTwoFactor, { token: await signedIn(c, user, device) });
  })
  .post(API.register.path, validate("json", API.register.body), async (c) => {
    const { db, hasher, config } = c.get("deps");
    const input = c.req.valid("json");
    // Counted before the password is hashed, so sign-ups past the limit cost no hashing either.
    const source = sourceAddress(c);
    const hit = await takeHit(db, { bucket: "signup", max: config.signupLimit, windowSeconds: HOUR_SECONDS }, source, MSG.tooManySignUps);
    try {
      // A sign-up bound to be refused is refused before its password is hashed, and the hashing
      // is shared out among addresses as logins' is: refused sign-ups give their hit back, so
      // without both one address could keep the hasher busy for everyone.
      await refuseHopelessSignUp(db, input);
      const passwordHash = await oneOfFewFrom(source, config.loginChecksPerSource, () => hasher.hash(input.password));
      await signUp(db, { ...input, passwordHash });
    } catch (error) {
      // No account was made: the attempt does not count against the address.
      await hit.release();
      throw error;
    }
    // The sign-up queued the address's confirmation link.
    c.get("deps").mailer?.kick();
    return reply(c, API.register, { msg: MSG.registered });
  })
  .get(API.adminReferralId.path, async (c) => reply(c, API.adminReferralId, { referralId: await adminReferralId(c.get("deps").db) }))
  // requireSignedIn's check and the member in one statement (memberForToken): one round trip.
  .get(API.me.path, async (c) => {
    const claims = await callerClaims(c);
    if (claims instanceof Response) return claims;
    const found = await memberForToken(c.get("deps").db, claims);
    if (!found) return refusal(c, "bad_token");
    c.set("claims", claims);
    c.set("user", found.user);
    return c.body(encodedMember(found), 200, { "Content-Type": "application/json" });
  })
  .post(API.logout.path, requireSignedIn, async (c) => {
    await revokeToken(c.get("deps").db, c.get("claims"));
    // The streams opened with this token end too, in every process (docs/rules.md#notifications).
    await signalStreamsClosed(c.get("deps").db, c.get("user").id, c.get("claims").jti);
    return reply(c, API.logout, { msg: MSG.loggedOut });
  })
  .get(API.twoFactorStatus.path, requireSignedIn, async (c) => {
    const { db, config } = c.get("deps");
    const user = c.get("user");
    const status = await twoFactorStatus(db, user.id);
    return reply(c, API.twoFactorStatus, { ...status, required: config.adminRequire2fa && user.role === "admin" });
  })
  // Turning 2FA on or off needs the current password as well as the session (docs/rules.md#account-recovery-and-mail).
  .post(API.twoFactorSetup.path, requireSignedIn, validate("json", API.twoFactorSetup.body), async (c) => {
    await provePassword(c, c.req.valid("json").currentPassword);
    return reply(c, API.twoFactorSetup, await beginSetup(c.get("deps").db, c.get("user").id));
  })
  .post(API.twoFactorEnable.path, requireSignedIn, validate("json", API.twoFactorEnable.body), async (c) => {
    const { code, currentPassword } = c.req.valid("json");
    await provePassword(c, currentPassword);
    const userId = c.get("user").id;
    const { recoveryCodes, generation } = await enable(c.get("deps").db, userId, code);
    c.get("deps").mailer?.kick();
    // Every other session ended with the old generation; the caller's goes on in the new one.
    await trustDevice(c, userId, generation);
    return reply(c, API.twoFactorEnable, { recoveryCodes, token: await issueToken(c.get("deps").jwtSecret, userId, generation) });
  })
  .post(API.twoFactorDisable.path, requireSignedIn, validate("json", API.twoFactorDisable.body), async (c) => {
    const { code, currentPassword } = c.req.valid("json");
    await provePassword(c, currentPassword);
    await disable(c.get("deps").db, c.get("user").id, code);
    c.get("deps").mailer?.kick();
    return reply(c, API.twoFactorDisable, { msg: MSG.twoFactorDisabled });
  })
  .route("/", accountRoutes);
