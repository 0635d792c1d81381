import { json, serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderApp } from "../../testing/renderApp";
import { makeMe, wireMe } from "../../testing/renderClient";
import { getToken } from "../lib/session";

useDom();

function serve(logout: () => Response) {
  return serveFetch((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/auth/logout") return logout();
    if (path === "/api/auth") return json(wireMe(makeMe({ name: "Ada Lovelace" })));
    return json({ name: "Root", myReferralId: "ROOT" });
  });
}

test("Sign Out asks first, logs out, says 'Logged Out!' and lands on /login without the stranger toast", async () => {
  const seen = serve(() => json({ msg: "Logged out successfully." }));
  const app = renderApp("/userDashboard", { token: "t1" });
  fireEvent.click(await screen.findByRole("button", { name: "Sign Out" }));
  expect(await screen.findByText("Are you sure?")).toBeTruthy();
  expect(screen.getByText("Do you want to log out?")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Yes, logout!" }));
  expect(await screen.findByText("Logged Out!")).toBeTruthy();
  expect(screen.getByText("You have successfully logged out.")).toBeTruthy();
  await waitFor(() => expect(app.location()).toBe("/login"));
  expect(getToken()).toBeNull();
  expect(seen.some((r) => r.method === "POST" && new URL(r.url).pathname === "/api/auth/logout")).toBe(true);
  expect(screen.queryByText("You must be logged in to access this page!")).toBeNull();
  expect(app.client.getQueryData(["auth", "me"])).toBeUndefined();
});

test("a failed logout shows 'Error!' with the server's message and keeps the user signed in", async () => {
  serve(() => json({ msg: "Database unavailable." }, 503));
  const app = renderApp("/userDashboard", { token: "t1" });
  fireEvent.click(await screen.findByRole("button", { name: "Sign Out" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, logout!" }));
  expect(await screen.findByText("Error!")).toBeTruthy();
  expect(screen.getByText("Database unavailable.")).toBeTruthy();
  expect(getToken()).toBe("t1");
  expect(app.location()).toBe("/userDashboard");
});
