import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderClient } from "../../../testing/renderClient";
import { getToken } from "../../lib/session";
import SecurityPage from "./SecurityPage";

useDom();

const RECOVERY = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-${String(i).padStart(4, "2")}`);

/** The form of the page named `name` (each has its own fields: two ask for the current password). */
const formNamed = async (name: string) => within(await screen.findByRole("form", { name }));

test("set-up: the current password first, a QR code drawn locally and the key, a code turns 2FA on (the session's token renewed), and the ten recovery codes are shown once", async () => {
  let enabled = false;
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/2fa") return json({ enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 });
    if (path === "/api/auth/2fa/setup") {
      const { currentPassword } = (await request.clone().json()) as { currentPassword: string };
      if (currentPassword !== "my-password") return json({ msg: "Your current password is not right.", code: "wrong_password" }, 400);
      return json({ secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Matrix%20USDT:ada%40example.com?secret=JBSWY3DPEHPK3PXP" });
    }
    if (path === "/api/auth/2fa/enable") {
      const { code, currentPassword } = (await request.clone().json()) as { code: string; currentPassword: string };
      if (currentPassword !== "my-password") return json({ msg: "Your current password is not right.", code: "wrong_password" }, 400);
      if (code !== "123456") return json({ msg: "Invalid authentication code.", code: "two_factor_invalid" }, 400);
      enabled = true;
      return json({ recoveryCodes: RECOVERY, token: "renewed-token" });
    }
    return json({});
  });
  renderClient(<SecurityPage />);
  const start = await formNamed("Set up two-factor authentication");
  fireEvent.click(start.getByRole("button", { name: "Set up two-factor authentication" }));
  expect(await start.findByText("Please type your current password.")).toBeTruthy();
  fireEvent.change(start.getByLabelText("Current password"), { target: { value: "wrong" } });
  fireEvent.click(start.getByRole("button", { name: "Set up two-factor authentication" }));
  expect(await start.findByText("Your current password is not right.")).toBeTruthy();
  fireEvent.change(start.getByLabelText("Current password"), { target: { value: "my-password" } });
  expect(start.queryByText("Your current password is not right.")).toBeNull();
  fireEvent.click(start.getByRole("button", { name: "Set up two-factor authentication" }));
  const qr = (await screen.findByRole("img", { name: "QR code for your authenticator app" })) as HTMLImageElement;
  expect(qr.src).toStartWith("data:image/svg+xml");
  expect(decodeURIComponent(qr.src)).toContain("<svg");
  expect(screen.getByText("JBSWY3DPEHPK3PXP")).toBeTruthy();
  // Nothing went elsewhere to draw it.
  expect(seen.every((r) => new URL(r.url).origin === "http://localhost:3000")).toBe(true);

  fireEvent.change(screen.getByLabelText("Code from the app"), { target: { value: "000000" } });
  fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
  expect(await screen.findByText("Invalid authentication code.")).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Code from the app"), { target: { value: "123456" } });
  fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
  const list = await screen.findByRole("list", { name: "Recovery codes" });
  expect(getToken()).toBe("renewed-token");
  const enables = seen.filter((r) => new URL(r.url).pathname === "/api/auth/2fa/enable");
  expect(await enables.at(-1)!.json()).toEqual({ code: "123456", currentPassword: "my-password" });
  expect(list.querySelectorAll("li")).toHaveLength(10);
  expect(screen.getByText(RECOVERY[0]!)).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "I have saved them" }));
  expect(await screen.findByText(/10 recovery codes left/)).toBeTruthy();
  expect(screen.queryByText(RECOVERY[0]!)).toBeNull();
});

test("an admin who must use 2FA is told so; with 2FA on, a code turns it off", async () => {
  let state = { enabled: false, required: true, recoveryCodesLeft: 0 };
  serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/2fa") return json(state);
    if (path === "/api/auth/2fa/disable") {
      expect(await request.clone().json()).toEqual({ code: "123456", currentPassword: "my-password" });
      state = { ...state, enabled: false };
      return json({ msg: "Two-factor authentication is now off." });
    }
    return json({});
  });
  const { unmount } = renderClient(<SecurityPage />);
  expect(await screen.findByText(/Admins must use two-factor authentication/)).toBeTruthy();
  unmount();

  state = { enabled: true, required: true, recoveryCodesLeft: 7 };
  renderClient(<SecurityPage />);
  expect(await screen.findByText(/7 recovery codes left/)).toBeTruthy();
  const off = await formNamed("Turn off two-factor authentication");
  fireEvent.change(off.getByLabelText("Code to turn it off"), { target: { value: "123456" } });
  fireEvent.click(off.getByRole("button", { name: "Turn off two-factor authentication" }));
  expect(await off.findByText("Please type your current password.")).toBeTruthy();
  fireEvent.change(off.getByLabelText("Current password"), { target: { value: "my-password" } });
  fireEvent.click(off.getByRole("button", { name: "Turn off two-factor authentication" }));
  expect(await screen.findByText("Two-factor authentication is now off.")).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: "Set up two-factor authentication" })).toBeTruthy());
});

test("the password change: the current one, the new one twice; a wrong current password is said at its field; success keeps this session with the new token", async () => {
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/2fa") return json({ enabled: false, required: false, recoveryCodesLeft: 0 });
    if (path === "/api/auth/password") {
      const { currentPassword } = (await request.clone().json()) as { currentPassword: string };
      if (currentPassword !== "old-password") return json({ msg: "Your current password is not right.", code: "wrong_password" }, 400);
      return json({ msg: "Your password is changed. Every other session was signed out.", token: "after-change" });
    }
    return json({});
  });
  renderClient(<SecurityPage />);
  const form = await formNamed("Change password");
  const fill = (label: string, value: string) => fireEvent.change(form.getByLabelText(label), { target: { value } });
  fireEvent.click(form.getByRole("button", { name: "Change password" }));
  expect(await form.findByText("Please type your current password.")).toBeTruthy();
  expect(form.getByText("New password must be at least 6 characters.")).toBeTruthy();
  fill("Current password", "guess");
  fill("New password", "new-password");
  fill("Confirm new password", "new-password");
  fireEvent.click(form.getByRole("button", { name: "Change password" }));
  expect(await form.findByText("Your current password is not right.")).toBeTruthy();
  await waitFor(() => expect(document.activeElement).toBe(form.getByLabelText("Current password")));
  fill("Current password", "old-password");
  fireEvent.click(form.getByRole("button", { name: "Change password" }));
  expect(await screen.findByText("Your password is changed. Every other session was signed out.")).toBeTruthy();
  expect(getToken()).toBe("after-change");
  expect(await seen.find((r) => new URL(r.url).pathname === "/api/auth/password" && r !== seen[0])!.json()).toMatchObject({ newPassword: "new-password" });
  expect((form.getByLabelText("New password") as HTMLInputElement).value).toBe("");
});
