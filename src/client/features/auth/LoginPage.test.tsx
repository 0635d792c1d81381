import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderApp } from "../../../testing/renderApp";
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
