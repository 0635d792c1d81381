import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, test } from "bun:test";
import { renderApp } from "../../../testing/renderApp";
import { makeMe, wireMe } from "../../../testing/renderClient";
import { getToken } from "../../lib/session";

useDom();

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole("button", { name: "Login" }));

test("the login form asks for the email and the password and sends nothing", async () => {
  const seen = serveFetch(() => json({}));
  renderApp("/login");
  await screen.findByRole("heading", { name: "Welcome back" });
  submit();
  expect(await screen.findByText("Email is required.")).toBeTruthy();
  expect(screen.getByText("Password is required.")).toBeTruthy();
  expect(screen.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true");
  expect(seen).toHaveLength(0);
});

test("the login form refuses a malformed email, and the message goes once it is fixed", async () => {
  renderApp("/login");
  await screen.findByRole("heading", { name: "Welcome back" });
  fill("Email", "not-an-email");
  fill("Password", "secret");
  submit();
  expect(await screen.findByText("Please enter a valid email address.")).toBeTruthy();
  fill("Email", "ada@example.com");
  await waitFor(() => expect(screen.queryByText("Please enter a valid email address.")).toBeNull());
});

test("the email field is of type email and the password can be shown and hidden", async () => {
  renderApp("/login");
  await screen.findByRole("heading", { name: "Welcome back" });
  expect(screen.getByLabelText("Email").getAttribute("type")).toBe("email");
  const password = screen.getByLabelText("Password");
  expect(password.getAttribute("type")).toBe("password");
  fireEvent.click(screen.getByRole("button", { name: "Show password" }));
  expect(password.getAttribute("type")).toBe("text");
  fireEvent.click(screen.getByRole("button", { name: "Hide password" }));
  expect(password.getAttribute("type")).toBe("password");
});

test("a refused login shows the server's message, or 'Login failed. Please check your credentials.' without one", async () => {
  let reply = () => json({ msg: "Invalid email or password." }, 400);
  serveFetch(() => reply());
  renderApp("/logIn");
  await screen.findByRole("heading", { name: "Welcome back" });
  fill("Email", "ada@example.com");
  fill("Password", "wrong");
  submit();
  expect(await screen.findByText("Invalid email or password.")).toBeTruthy();
  reply = () => new Response("Bad gateway", { status: 502 });
  submit();
  expect(await screen.findByText("Login failed. Please check your credentials.")).toBeTruthy();
  expect(getToken()).toBeNull();
});

test("the Login button is disabled while the request is on its way", async () => {
  serveFetch(() => new Promise<Response>(() => {}));
  renderApp("/login");
  await screen.findByRole("heading", { name: "Welcome back" });
  fill("Email", "ada@example.com");
  fill("Password", "secret");
  submit();
  const busy = await screen.findByRole("button", { name: "Logging in..." });
  expect((busy as HTMLButtonElement).disabled).toBe(true);
});

describe("with two-factor authentication on", () => {
  const me = wireMe(makeMe());

  test("the password step answers a ticket: the code step shows, and the ticket and the code sign in", async () => {
    const seen = serveFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/auth/login") return json({ twoFactorRequired: true, ticket: "the-ticket" });
      if (path === "/api/auth/login/2fa") return json({ token: "signed-token" });
      if (path === "/api/auth") return json(me);
      return json({});
    });
    const { location } = renderApp("/login");
    await screen.findByRole("heading", { name: "Welcome back" });
    fill("Email", "ada@example.com");
    fill("Password", "secret");
    submit();
    await screen.findByRole("heading", { name: "Two-factor authentication" });
    expect(getToken()).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Code is required.")).toBeTruthy();
    fill("Authentication code", "123456");
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(getToken()).toBe("signed-token"));
    await waitFor(() => expect(location()).toBe("/userDashboard"));
    const second = seen.find((r) => new URL(r.url).pathname === "/api/auth/login/2fa")!;
    expect(await second.clone().json()).toEqual({ ticket: "the-ticket", code: "123456" });
  });

  test("a spent or expired ticket says so and goes back to the password step", async () => {
    serveFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/auth/login") return json({ twoFactorRequired: true, ticket: "the-ticket" });
      return json({ msg: "This sign-in has expired. Please log in again.", code: "login_ticket_invalid" }, 400);
    });
    renderApp("/login");
    await screen.findByRole("heading", { name: "Welcome back" });
    fill("Email", "ada@example.com");
    fill("Password", "secret");
    submit();
    await screen.findByRole("heading", { name: "Two-factor authentication" });
    fill("Authentication code", "123456");
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("This sign-in has expired. Please log in again.")).toBeTruthy();
    await screen.findByRole("heading", { name: "Welcome back" });
    expect(getToken()).toBeNull();
  });

  test("an admin who must turn 2FA on (ADMIN_REQUIRE_2FA) is taken to the Security page", async () => {
    serveFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/auth/login") return json({ token: "admin-token" });
      if (path === "/api/auth") return json(wireMe(makeMe({ role: "admin" })));
      if (path === "/api/auth/2fa") return json({ enabled: false, required: true, recoveryCodesLeft: 0 });
      return json({});
    });
    const { location } = renderApp("/login");
    await screen.findByRole("heading", { name: "Welcome back" });
    fill("Email", "admin@example.com");
    fill("Password", "secret");
    submit();
    await waitFor(() => expect(location()).toBe("/userDashboard/security"));
  });
});
