import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderApp } from "../../../testing/renderApp";
import { MSG } from "../../../shared/messages";

useDom();

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

test("the login page links to the forgot-password page, which sends the email and shows the one answer", async () => {
  const seen = serveFetch(async () => json({ msg: MSG.resetMailSent }));
  const app = renderApp("/login");
  fireEvent.click(await screen.findByRole("link", { name: "Forgot your password?" }));
  await screen.findByRole("heading", { name: "Forgot your password?" });
  expect(app.location()).toBe("/forgot-password");
  press("Send me a link");
  expect(await screen.findByText("Email is required.")).toBeTruthy();
  expect(seen).toHaveLength(0);
  fill("Email", "ada@example.com");
  press("Send me a link");
  expect((await screen.findByText(MSG.resetMailSent)).getAttribute("role")).toBe("status");
  expect(seen[0]!.method).toBe("POST");
  expect(new URL(seen[0]!.url).pathname).toBe("/api/auth/password/forgot");
  expect(await seen[0]!.json()).toEqual({ email: "ada@example.com" });
});

test("a throttled request is said under the email field", async () => {
  serveFetch(async () => json({ msg: MSG.tooManyResetMails(60), code: "throttled" }, 429));
  renderApp("/forgot-password");
  await screen.findByRole("heading", { name: "Forgot your password?" });
  fill("Email", "ada@example.com");
  press("Send me a link");
  expect(await screen.findByText(MSG.tooManyResetMails(60))).toBeTruthy();
  await waitFor(() => expect(screen.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true"));
});

test("reset: the password typed twice, the link's token sent with it, then the login page", async () => {
  const seen = serveFetch(async () => json({ msg: MSG.passwordReset }));
  const app = renderApp("/reset-password?token=tok_123");
  await screen.findByRole("heading", { name: "Choose a new password" });
  fill("New password", "abc");
  fill("Confirm new password", "abcdef");
  press("Set the new password");
  expect(await screen.findByText("Password must be at least 6 characters.")).toBeTruthy();
  expect(screen.getByText("Passwords do not match")).toBeTruthy();
  fill("New password", "abcdef");
  press("Set the new password");
  await waitFor(() => expect(app.location()).toBe("/login"));
  expect(await seen[0]!.json()).toEqual({ token: "tok_123", password: "abcdef" });
  expect(await screen.findByText(MSG.passwordReset)).toBeTruthy();
});

test("reset with two-factor on: the code field appears with the server's sentence; a dead link says to ask for a new one", async () => {
  let calls = 0;
  const seen = serveFetch(async () => {
    calls++;
    if (calls === 1) return json({ msg: MSG.twoFactorCodeRequired, code: "two_factor_code_required" }, 400);
    return json({ msg: MSG.tokenInvalid, code: "token_invalid" }, 400);
  });
  renderApp("/reset-password?token=tok_123");
  await screen.findByRole("heading", { name: "Choose a new password" });
  fill("New password", "abcdef");
  fill("Confirm new password", "abcdef");
  press("Set the new password");
  expect(await screen.findByText(MSG.twoFactorCodeRequired)).toBeTruthy();
  fill("Authentication code", "123456");
  press("Set the new password");
  expect((await screen.findByRole("alert")).textContent).toBe(MSG.tokenInvalid);
  expect(screen.getByRole("link", { name: "Ask for a new link" }).getAttribute("href")).toBe("/forgot-password");
  expect(await seen[1]!.json()).toEqual({ token: "tok_123", password: "abcdef", code: "123456" });
});

test("a reset page without a token says what to do at once", async () => {
  serveFetch(async () => json({}));
  renderApp("/reset-password");
  expect((await screen.findByRole("alert")).textContent).toContain("open that link again");
});

test("confirm email: the button sends the link's token and shows the answer; a refusal its sentence", async () => {
  const seen = serveFetch(async (request) => {
    const { token } = (await request.clone().json()) as { token: string };
    return token === "good" ? json({ msg: MSG.emailChanged("new@example.com"), email: "new@example.com" }) : json({ msg: MSG.emailTaken, code: "email_taken" }, 409);
  });
  const { unmount } = renderApp("/confirm-email?token=good");
  press(await screen.findByRole("button", { name: "Confirm my address" }).then((b) => b.textContent!));
  expect((await screen.findByText(MSG.emailChanged("new@example.com"))).getAttribute("role")).toBe("status");
  expect(new URL(seen[0]!.url).pathname).toBe("/api/auth/email/confirm");
  unmount();
  renderApp("/confirm-email?token=taken");
  press(await screen.findByRole("button", { name: "Confirm my address" }).then((b) => b.textContent!));
  expect(within(await screen.findByRole("alert")).getByText(MSG.emailTaken)).toBeTruthy();
});
