import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AdminDashboardPage from "./AdminDashboardPage";

useDom();

const admin = makeMe({ role: "admin" });
const deposit = {
  _id: "d1",
  userEmail: "ada@example.com",
  userName: "Ada",
  amount: 25,
  address: "TFrom",
  transactionId: "tx-1",
  status: "pending",
  createdAt: "2026-03-01T10:00:00.000Z",
  decidedAt: null,
};

test("accepting a deposit shows 'Request successfully accepted.' and reloads the list", async () => {
  let pending = [deposit];
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") {
      pending = [];
      return json({ msg: "Request successfully accepted." });
    }
    if (url.pathname === "/api/admin/deposits") return json(pending);
    return json([]);
  });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Accept deposit of Ada" }));
  expect(await screen.findByText("Request successfully accepted.")).toBeTruthy();
  const put = seen.find((r) => r.method === "PUT")!;
  expect(new URL(put.url).pathname).toBe("/api/admin/deposits/d1");
  expect(await put.json()).toEqual({ status: "accepted" });
  expect(put.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
  await waitFor(() => expect(screen.getAllByText("No pending requests.")).toHaveLength(2));
});

test("a refused decision shows the server's reason, else 'Failed to process request.'", async () => {
  let answer = json({ msg: "This request has already been processed." }, 409);
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") return answer;
    return json(url.pathname === "/api/admin/deposits" ? [deposit] : []);
  });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Decline deposit of Ada" }));
  expect(await screen.findByText("This request has already been processed.")).toBeTruthy();
  answer = new Response("", { status: 500 });
  await waitFor(() => expect(screen.getByRole("button", { name: "Decline deposit of Ada" }).hasAttribute("disabled")).toBe(false));
  fireEvent.click(screen.getByRole("button", { name: "Decline deposit of Ada" }));
  expect(await screen.findByText("Failed to process request.")).toBeTruthy();
});

test("the dashboard says 'Could not load dashboard data.' when a list fails to load", async () => {
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return url.pathname === "/api/admin/withdrawals" ? new Response("", { status: 500 }) : json([]);
  });
  renderClient(<AdminDashboardPage />, { me: admin });
  expect(await screen.findByText("Could not load dashboard data.")).toBeTruthy();
  expect(screen.getByText("No pending requests.")).toBeTruthy();
});
