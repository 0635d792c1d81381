import { json, serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, test } from "bun:test";
import { makeMe, wireMe } from "../../testing/renderClient";
import { renderApp } from "../../testing/renderApp";
import { CONNECTION_LOST } from "../layout/ConnectionBanner";
import { meKey } from "../lib/me";
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

describe("a server that cannot be reached never signs the member out", () => {
  /** The server's state: answering, unreachable (the fetch itself fails), or restarting (502 from a proxy, 503). */
  let state: "up" | "unreachable" | "restarting" = "up";
  const serve = () =>
    serveFetch((req) => {
      if (state === "unreachable") throw new TypeError("Failed to fetch");
      if (state === "restarting") return new Response("<html>Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } });
      return new URL(req.url).pathname === "/api/auth" ? json(wireMe(makeMe())) : json({ msg: "Not found." }, 404);
    });
  // A boolean, not the element: a failed expect on a DOM node takes Bun ages to print.
  const banner = () => screen.queryByText(CONNECTION_LOST) !== null;

  for (const outage of ["unreachable", "restarting"] as const) {
    test(`${outage}: the dashboard stays, says "Connection lost..." politely, and recovers by itself`, async () => {
      state = "up";
      serve();
      const app = renderApp("/userDashboard", { token: "stored-token" });
      expect(await screen.findByRole("heading", { name: "Profile" })).toBeTruthy();
      expect(banner()).toBe(false);

      state = outage;
      // Not awaited: it settles only once the server answers again.
      void app.client.refetchQueries({ queryKey: meKey });
      const shown = await screen.findByText(CONNECTION_LOST);
      expect(shown.closest("[role=status]")).not.toBeNull();
      // Still signed in, still on the page, the user still shown; no toast per try.
      expect(getToken()).toBe("stored-token");
      expect(app.location()).toBe("/userDashboard");
      expect(screen.getByRole("heading", { name: "Profile" })).toBeTruthy();
      expect(screen.queryByText("Failed to fetch")).toBeNull();

      state = "up";
      await waitFor(() => expect(banner()).toBe(false), { timeout: 5000 });
      expect(getToken()).toBe("stored-token");
      expect(app.location()).toBe("/userDashboard");
    });
  }

  test("before the first answer: the loader with the banner, the token kept, then the dashboard once the server answers", async () => {
    state = "unreachable";
    serve();
    const app = renderApp("/userDashboard", { token: "stored-token" });
    expect(await screen.findByText(CONNECTION_LOST)).toBeTruthy();
    expect(screen.getByText("Loading, please wait...")).toBeTruthy();
    expect(getToken()).toBe("stored-token");
    state = "up";
    expect(await screen.findByRole("heading", { name: "Profile" }, { timeout: 5000 })).toBeTruthy();
    expect(banner()).toBe(false);
    expect(app.location()).toBe("/userDashboard");
  });

  test("a 401 during an outage still signs out", async () => {
    state = "up";
    let refuse = false;
    serveFetch((req) => {
      if (refuse) return json({ msg: "Token is not valid", code: "bad_token" }, 401);
      return new URL(req.url).pathname === "/api/auth" ? json(wireMe(makeMe())) : json({ msg: "Not found." }, 404);
    });
    const app = renderApp("/userDashboard", { token: "stored-token" });
    expect(await screen.findByRole("heading", { name: "Profile" })).toBeTruthy();
    refuse = true;
    await app.client.refetchQueries({ queryKey: meKey });
    await waitFor(() => expect(app.location()).toBe("/logIn"), { timeout: 4000 });
    expect(getToken()).toBeNull();
    expect(banner()).toBe(false);
  });
});
