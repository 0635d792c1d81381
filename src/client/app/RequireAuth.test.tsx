import { json, serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, wireMe } from "../../testing/renderClient";
import { renderApp } from "../../testing/renderApp";
import { getToken } from "../lib/session";

useDom();

test("an anonymous visit to /userDashboard goes to /logIn with the toast 'You must be logged in to access this page!'", async () => {
  const seen = serveFetch(() => json({ msg: "No token, authorization denied" }, 401));
  const app = renderApp("/userDashboard/deposit");
  expect(await screen.findByText("You must be logged in to access this page!")).toBeTruthy();
  await waitFor(() => expect(app.location()).toBe("/logIn"));
  expect(await screen.findByRole("heading", { name: "Welcome back" })).toBeTruthy();
  // The query for the current user never runs without a token.
  expect(seen).toHaveLength(0);
});

test("after logging in from that redirect, the user lands on the page first asked for", async () => {
  const me = makeMe({ name: "Grace Hopper", balance: 1250n });
  serveFetch((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/auth/login") return json({ token: "fresh-token" });
    if (path === "/api/auth") return json(wireMe(me));
    return json({ msg: "Not found." }, 404);
  });
  const app = renderApp("/userDashboard");
  fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "grace@example.com" } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: "secret-password" } });
  fireEvent.click(screen.getByRole("button", { name: "Login" }));
  expect(await screen.findByText("Login successful! Welcome back.")).toBeTruthy();
  await waitFor(() => expect(app.location()).toBe("/userDashboard"));
  expect(getToken()).toBe("fresh-token");
  expect((await screen.findAllByText("12.50 $")).length).toBeGreaterThan(0); // header (and profile) balance
  expect(screen.getAllByText("Grace Hopper").length).toBeGreaterThan(0);
});

test("while the signed-in user loads, the full-screen 'Loading, please wait...' shows", async () => {
  let answer: (r: Response) => void = () => {};
  serveFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
  renderApp("/userDashboard", { token: "stored-token" });
  expect(await screen.findByText("Loading, please wait...")).toBeTruthy();
  answer(json(wireMe(makeMe())));
  expect(await screen.findByRole("heading", { name: "Profile" })).toBeTruthy();
});

test("a stored token the server refuses signs the user out and back to /logIn", async () => {
  serveFetch(() => json({ msg: "Token is not valid" }, 401));
  const app = renderApp("/userDashboard", { token: "expired-token" });
  await waitFor(() => expect(app.location()).toBe("/logIn"), { timeout: 4000 });
  expect(getToken()).toBeNull();
});
