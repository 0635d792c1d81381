import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderApp } from "../../../testing/renderApp";
import { MSG } from "../../../shared/messages";

useDom();

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole("button", { name: "Register" }));
const heading = () => screen.findByRole("heading", { name: "Create your account" });

function fillValid() {
  fill("Name", "Ada Lovelace");
  fill("Email", "ada@example.com");
  fill("Password", "secret1");
  fill("Confirm password", "secret1");
}

test("without ?ref the admin's referral ID is fetched once, and the page says the visitor joins under the platform's first account", async () => {
  const seen = serveFetch(() => json({ referralId: "ADMIN1" }));
  renderApp("/register");
  await heading();
  await waitFor(() => expect((screen.getByLabelText("Referral ID") as HTMLInputElement).value).toBe("ADMIN1"));
  expect(screen.getByText("Joining under the platform's first account (ADMIN1): no invitation link was used.")).toBeTruthy();
  expect(seen.map((r) => new URL(r.url).pathname)).toEqual(["/api/auth/admin-referral-id"]);
});

test("?ref pre-fills the referral ID, names the inviter, and the admin's is not asked for", async () => {
  const seen = serveFetch(() => json({ name: "Alice Smith" }));
  renderApp("/Register?ref=FRIEND7");
  await heading();
  expect((screen.getByLabelText("Referral ID") as HTMLInputElement).value).toBe("FRIEND7");
  expect(await screen.findByText("Joining under Alice Smith (FRIEND7)")).toBeTruthy();
  expect(screen.queryByText(/platform's first account/)).toBeNull();
  expect(seen.map((r) => new URL(r.url).pathname)).toEqual(["/api/referrers/FRIEND7"]);
  // Another ID typed in: the link's inviter is no longer named.
  fill("Referral ID", "OTHER9");
  expect(screen.queryByText(/Joining under/)).toBeNull();
});

test("a link whose referral ID names no one says so at the field before anything is sent", async () => {
  serveFetch(() => json({ msg: "Invalid referral ID.", code: "invalid_referral" }, 400));
  renderApp("/register?ref=NOSUCH");
  await heading();
  expect(await screen.findByText("Invalid referral ID.")).toBeTruthy();
  expect(screen.getByLabelText("Referral ID").getAttribute("aria-invalid")).toBe("true");
  expect(screen.queryByText(/Joining under/)).toBeNull();
});

test("an empty referral ID says 'Referral ID is required.'", async () => {
  serveFetch(() => json({ referralId: "ADMIN1" }));
  renderApp("/register");
  await heading();
  await waitFor(() => expect((screen.getByLabelText("Referral ID") as HTMLInputElement).value).toBe("ADMIN1"));
  fillValid();
  fill("Referral ID", "  ");
  submit();
  expect(await screen.findByText("Referral ID is required.")).toBeTruthy();
});

test("differing passwords say 'Passwords do not match' and a short one asks for 6 characters", async () => {
  const seen = serveFetch(() => json({ referralId: "ADMIN1" }));
  renderApp("/register?ref=FRIEND7");
  await heading();
  fillValid();
  fill("Confirm password", "secret2");
  submit();
  expect(await screen.findByText("Passwords do not match")).toBeTruthy();
  fill("Password", "abc");
  fill("Confirm password", "abc");
  expect(await screen.findByText("Password must be at least 6 characters.")).toBeTruthy();
  expect(screen.queryByText("Passwords do not match")).toBeNull();
  // Only the link's inviter was looked up: no registration was sent.
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
});

test("an empty form names every missing field", async () => {
  serveFetch(() => json({ msg: "down" }, 500));
  renderApp("/register");
  await heading();
  submit();
  expect(await screen.findByText("Name is required.")).toBeTruthy();
  expect(screen.getByText("Email is required.")).toBeTruthy();
  expect(screen.getByText("Please confirm your password.")).toBeTruthy();
  expect(screen.getByText("Referral ID is required.")).toBeTruthy();
});

test("a registration is posted without the confirmation, toasts success and goes to /login", async () => {
  const seen = serveFetch(() => json({ msg: "Registration successful! Please log in." }, 201));
  const app = renderApp("/register?ref=FRIEND7");
  await heading();
  fillValid();
  submit();
  expect(await screen.findByText("Registration successful! Please log in.")).toBeTruthy();
  await waitFor(() => expect(app.location()).toBe("/login"));
  expect(await seen.find((r) => r.method === "POST")!.json()).toEqual({ name: "Ada Lovelace", email: "ada@example.com", password: "secret1", referralId: "FRIEND7" });
});

test("a refused registration shows the server's reason, or 'Registration failed. Please try again.'", async () => {
  let reply = () => json({ msg: "Invalid referral ID." }, 400);
  serveFetch(() => reply());
  renderApp("/register?ref=NOPE");
  await heading();
  fillValid();
  submit();
  expect(await screen.findByText("Invalid referral ID.")).toBeTruthy();
  reply = () => new Response("oops", { status: 500 });
  submit();
  expect(await screen.findByText("Registration failed. Please try again.")).toBeTruthy();
});

test("the server's refusals are said at their fields: a name that passes for staff, a taken email", async () => {
  let reply = () => json({ msg: MSG.reservedName, code: "validation" }, 400);
  serveFetch(() => reply());
  renderApp("/register?ref=ADA123");
  await heading();
  fillValid();
  submit();
  expect(await screen.findByText(MSG.reservedName)).toBeTruthy();
  expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
  reply = () => json({ msg: MSG.emailTaken, code: "email_taken" }, 409);
  submit();
  expect(await screen.findByText(MSG.emailTaken)).toBeTruthy();
  expect(screen.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true");
});
