import { Hono } from "hono";
import { changePassword, confirmEmail, forgotPassword, requestEmailChange, resendVerification, resetPassword, updateProfile } from "../../core/account";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { trustDevice, trustedDevice } from "../deviceTrust";
import type { AppEnv } from "../env";
import { requireSignedIn } from "../middleware/auth";
import { sourceAddress } from "../middleware/source";
import { oneOfFewFrom } from "../passwordWork";
import { reply } from "../reply";
import { issueToken } from "../tokens";
import { validate } from "../validate";

/**
 * The member's own account (docs/rules.md#account-recovery-and-mail): forgotten passwords by
 * mail, the password, name and email changed, the address confirmed. Mounted by authRoutes.
 * /auth/* routes that need a session take `requireSignedIn` (an admin who still has to turn on
 * 2FA may change a password); /user/* ones are behind the app's requireUser. Each route that
 * queued a mail kicks this process's mailer, which sends it after the commit.
 */
export const accountRoutes = new Hono<AppEnv>()
  .post(API.forgotPassword.path, validate("json", API.forgotPassword.body), async (c) => {
    const { db, mailer } = c.get("deps");
    await forgotPassword(db, c.req.valid("json").email, sourceAddress(c));
    mailer?.kick();
    // The same answer whether the email has an account or not.
    return reply(c, API.forgotPassword, { msg: MSG.resetMailSent });
  })
  .post(API.resetPassword.path, validate("json", API.resetPassword.body), async (c) => {
    const { db, hasher, config, mailer } = c.get("deps");
    const input = c.req.valid("json");
    await oneOfFewFrom(sourceAddress(c), config.loginChecksPerSource, () => resetPassword(db, hasher, input));
    mailer?.kick();
    return reply(c, API.resetPassword, { msg: MSG.passwordReset });
  })
  .post(API.changePassword.path, requireSignedIn, validate("json", API.changePassword.body), async (c) => {
    const { db, hasher, config, jwtSecret, mailer } = c.get("deps");
    const userId = c.get("user").id;
    const source = sourceAddress(c);
    const device = await trustedDevice(c);
    const generation = await oneOfFewFrom(source, config.loginChecksPerSource, () => changePassword(db, hasher, userId, c.req.valid("json"), source, device));
    mailer?.kick();
    // Every other session ended with the old generation; the caller's goes on in the new one.
    await trustDevice(c, userId, generation);
    return reply(c, API.changePassword, { msg: MSG.passwordChanged, token: await issueToken(jwtSecret, userId, generation) });
  })
  .post(API.confirmEmail.path, validate("json", API.confirmEmail.body), async (c) => {
    const { db, mailer } = c.get("deps");
    const confirmed = await confirmEmail(db, c.req.valid("json").token);
    mailer?.kick();
    return reply(c, API.confirmEmail, confirmed);
  })
  .post(API.resendVerification.path, requireSignedIn, async (c) => {
    const { db, mailer } = c.get("deps");
    const msg = await resendVerification(db, c.get("user").id);
    mailer?.kick();
    return reply(c, API.resendVerification, { msg });
  })
  .put(API.updateProfile.path, validate("json", API.updateProfile.body), async (c) => {
    const name = await updateProfile(c.get("deps").db, c.get("user").id, c.req.valid("json"));
    return reply(c, API.updateProfile, { msg: MSG.profileSaved, name });
  })
  .post(API.changeEmail.path, validate("json", API.changeEmail.body), async (c) => {
    const { db, hasher, config, mailer } = c.get("deps");
    const input = c.req.valid("json");
    const source = sourceAddress(c);
    await oneOfFewFrom(source, config.loginChecksPerSource, () => requestEmailChange(db, hasher, c.get("user").id, input, source));
    mailer?.kick();
    return reply(c, API.changeEmail, { msg: MSG.emailChangeSent(input.newEmail) });
  });
