import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderClient } from "../../../testing/renderClient";
import SecurityPage from "./SecurityPage";

useDom();

const RECOVERY = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-${String(i).padStart(4, "2")}`);

test("set-up: a QR code drawn locally and the key, a code turns 2FA on, and the ten recovery codes are shown once", async () => {
  let enabled = false;
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/2fa") return json({ enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 });
    if (path === "/api/auth/2fa/setup") return json({ secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Matrix%20USDT:ada%40example.com?secret=JBSWY3DPEHPK3PXP" });
    if (path === "/api/auth/2fa/enable") {
      const { code } = (await request.clone().json()) as { code: string };
      if (code !== "123456") return json({ msg: "Invalid authentication code.", code: "two_factor_invalid" }, 400);
      enabled = true;
      return json({ recoveryCodes: RECOVERY });
    }
    return json({});
  });
  renderClient(<SecurityPage />);
  fireEvent.click(await screen.findByRole("button", { name: "Set up two-factor authentication" }));
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
  fireEvent.change(screen.getByLabelText("Code to turn it off"), { target: { value: "123456" } });
  fireEvent.click(screen.getByRole("button", { name: "Turn off two-factor authentication" }));
  expect(await screen.findByText("Two-factor authentication is now off.")).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: "Set up two-factor authentication" })).toBeTruthy());
});
