import { expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { resetAdminPassword, type PasswordHasher } from "../core/sessions";
import { ADMIN, testHasher } from "../testing/db";
import { type Harness, withHarness } from "../testing/harness";

/**
 * A login whose password is being checked when the admin password is reset (which signs the admin
 * out everywhere) is checked against the old password: it must not end with a token, nor with a
 * ticket that a code turns into one. (It read the hash, the hasher took its time, and the token
 * was made in the session generation read afterwards: the reset's new one.)
 */

/** A hasher whose next check, once armed, waits until released (the reset runs meanwhile). */
function heldHasher() {
  let release!: () => void;
  let entered!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const checking = new Promise<void>((r) => (entered = r));
  let armed = false;
  const hasher: PasswordHasher = {
    hash: (password) => testHasher.hash(password),
    verify: async (password, hash) => {
      const ok = await testHasher.verify(password, hash);
      if (armed) {
        armed = false;
        entered();
        await released;
      }
      return ok;
    },
  };
  return { hasher, arm: () => (armed = true), release: () => release(), checking };
}

/** Turns the admin's 2FA on; answers a code generator for it (`steps` periods from now). */
async function twoFactorOn(h: Harness): Promise<(steps: number) => string> {
  const setup = await h.call("POST", "/api/auth/2fa/setup", { token: h.adminToken, body: { currentPassword: ADMIN.password } });
  const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret as string), algorithm: "SHA1", digits: 6, period: 30 });
  const codeAt = (steps: number) => totp.generate({ timestamp: Date.now() + steps * 30_000 });
  const enabled = await h.call("POST", "/api/auth/2fa/enable", { token: h.adminToken, body: { code: codeAt(-1), currentPassword: ADMIN.password } });
  expect(enabled.status).toBe(200);
  // Turning 2FA on ended the admin's other sessions; the harness's goes on with the new token.
  h.adminToken = enabled.body.token;
  return codeAt;
}

/** A login with the admin's old password, its check held open while `reset` runs. */
async function loginAcross(h: Harness, held: ReturnType<typeof heldHasher>, reset: () => Promise<unknown>) {
  held.arm();
  const pending = h.call("POST", "/api/auth/login", { body: ADMIN });
  await held.checking;
  await reset();
  held.release();
  return pending;
}

test("a login with the old password, checked while the admin password is reset, gets no token", async () => {
  const held = heldHasher();
  await withHarness(
    async (h) => {
      const res = await loginAcross(h, held, () => resetAdminPassword(h.db, testHasher, { password: "a-brand-new-password" }));
      expect(res).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
      // The new password works as ever.
      expect((await h.me(await h.login(ADMIN.email, "a-brand-new-password"))).role).toBe("admin");
    },
    { hasher: held.hasher },
  );
});

test("with 2FA on, the same login gets no ticket (a code would have made it a working token)", async () => {
  const held = heldHasher();
  await withHarness(
    async (h) => {
      await twoFactorOn(h);
      const res = await loginAcross(h, held, () => resetAdminPassword(h.db, testHasher, { password: "a-brand-new-password" }));
      expect(res).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
      expect(res.body.ticket).toBeUndefined();
    },
    { hasher: held.hasher },
  );
});

test("a reset that also turns 2FA off gives the old password no token without a code", async () => {
  const held = heldHasher();
  await withHarness(
    async (h) => {
      await twoFactorOn(h);
      const res = await loginAcross(h, held, () => resetAdminPassword(h.db, testHasher, { password: "a-brand-new-password", disableTwoFactor: true }));
      expect(res).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
      expect(res.body.token).toBeUndefined();
    },
    { hasher: held.hasher },
  );
});

test("a ticket taken before the reset is refused after it; one taken after works", async () => {
  await withHarness(async (h) => {
    const codeAt = await twoFactorOn(h);
    const first = await h.call("POST", "/api/auth/login", { body: ADMIN });
    expect(first.body.twoFactorRequired).toBe(true);
    await resetAdminPassword(h.db, testHasher, { password: ADMIN.password });
    const done = await h.call("POST", "/api/auth/login/2fa", { body: { ticket: first.body.ticket, code: codeAt(0) } });
    expect(done).toMatchObject({ status: 400, body: { code: "login_ticket_invalid" } });
    // A login after the reset works, and its token too.
    const again = await h.call("POST", "/api/auth/login", { body: ADMIN });
    const token = (await h.call("POST", "/api/auth/login/2fa", { body: { ticket: again.body.ticket, code: codeAt(1) } })).body.token as string;
    expect((await h.me(token)).role).toBe("admin");
  });
});
