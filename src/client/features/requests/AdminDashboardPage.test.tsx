import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { QueryClientProvider } from "@tanstack/react-query";
import { Provider } from "jotai";
import { useState } from "react";
import toast, { Toaster } from "react-hot-toast";
import { MemoryRouter } from "react-router";
import { createQueryClient } from "../../app/queryClient";
import { meKey } from "../../lib/me";
import { setToken, store } from "../../lib/session";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AllUsersPage from "../users/AllUsersPage";
import AdminDashboardPage from "./AdminDashboardPage";

useDom();
closeDialogsAfterEach();

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
  reason: null,
  network: "TRC20",
  canonicalTransactionId: null,
  chain: null,
  checking: false,
  toAddress: null,
  chainAmount: null,
};
const withdrawal = {
  _id: "w1",
  userEmail: "bob@example.com",
  userName: "Bob",
  amount: 20,
  fee: null,
  accountType: "USDT TRC20",
  accountNumber: "TA9pkx4DFxrEw8JZzUtyDrh2uAat1LDuJL",
  status: "pending",
  createdAt: "2026-03-01T11:00:00.000Z",
  decidedAt: null,
  reason: null,
  payoutTransactionId: null,
  cancelled: false,
};

/** The admin's dashboard on stubbed lists; every PUT is answered with `decided` and recorded. */
function serve({ deposits = [deposit], withdrawals = [] as unknown[], decided = () => json({ msg: "Request successfully accepted." }) } = {}) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") return decided();
    if (url.pathname === "/api/admin/deposits") return json(deposits);
    if (url.pathname === "/api/admin/withdrawals") return json(withdrawals);
    return json([]);
  });
}

/** The confirmation dialog (sweetalert2) and its text. */
async function dialog() {
  const popup = await screen.findByRole("dialog");
  return popup.textContent ?? "";
}

test("accepting a deposit asks first, naming the member and the amount, then shows 'Request successfully accepted.' and reloads the list", async () => {
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
  const text = await dialog();
  expect(text).toContain("Accept this deposit?");
  expect(text).toContain("25.00\u00a0$ will be credited to Ada (ada@example.com)");
  expect(seen.filter((r) => r.method === "PUT")).toHaveLength(0);
  fireEvent.click(screen.getByRole("button", { name: "Yes, accept" }));
  expect(await screen.findByText("Request successfully accepted.")).toBeTruthy();
  const put = seen.find((r) => r.method === "PUT")!;
  expect(new URL(put.url).pathname).toBe("/api/admin/deposits/d1");
  expect(await put.json()).toEqual({ status: "accepted" });
  expect(put.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
  await waitFor(() => expect(screen.getAllByText("No pending requests.")).toHaveLength(2));
});

test("cancelling the confirmation sends nothing", async () => {
  const seen = serve();
  renderClient(<AdminDashboardPage />, { me: admin });
  for (const name of ["Accept deposit of Ada", "Decline deposit of Ada"]) {
    fireEvent.click(await screen.findByRole("button", { name }));
    await dialog();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog") === null).toBe(true));
  }
  expect(seen.filter((r) => r.method === "PUT")).toHaveLength(0);
});

test("accepting a withdrawal names the member, the amount and what their wallet receives", async () => {
  const seen = serve({ deposits: [], withdrawals: [withdrawal] });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Accept withdrawal of Bob" }));
  const text = await dialog();
  expect(text).toContain("Accept this withdrawal?");
  expect(text).toContain("The withdrawal of 20.00\u00a0$ by Bob (bob@example.com) will be paid: 18.40\u00a0$ to their wallet after the fee.");
  fireEvent.click(screen.getByRole("button", { name: "Yes, accept" }));
  await waitFor(() => expect(seen.filter((r) => r.method === "PUT")).toHaveLength(1));
  const put = seen.find((r) => r.method === "PUT")!;
  expect(new URL(put.url).pathname).toBe("/api/admin/withdrawals/w1");
  expect(await put.json()).toEqual({ status: "accepted" });
});

test("a decline asks for an optional reason and sends it, trimmed, as `reason`", async () => {
  const seen = serve({ decided: () => json({ msg: "Request successfully declined." }) });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Decline deposit of Ada" }));
  const text = await dialog();
  expect(text).toContain("Decline this deposit?");
  expect(text).toContain("The deposit of 25.00\u00a0$ by Ada (ada@example.com) will be declined.");
  const reason = screen.getByLabelText("Reason for the member (optional)") as HTMLTextAreaElement;
  expect(reason.getAttribute("maxlength")).toBe("200");
  fireEvent.change(reason, { target: { value: "  The transaction ID was not found on chain.  " } });
  fireEvent.click(screen.getByRole("button", { name: "Yes, decline" }));
  expect(await screen.findByText("Request successfully declined.")).toBeTruthy();
  const put = seen.find((r) => r.method === "PUT")!;
  expect(new URL(put.url).pathname).toBe("/api/admin/deposits/d1");
  expect(await put.json()).toEqual({ status: "declined", reason: "The transaction ID was not found on chain." });
});

test("a decline without a reason sends none; a reason over 200 characters cannot be confirmed", async () => {
  const seen = serve({ decided: () => json({ msg: "Request successfully declined." }) });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Decline deposit of Ada" }));
  await dialog();
  fireEvent.change(screen.getByLabelText("Reason for the member (optional)"), { target: { value: "x".repeat(201) } });
  fireEvent.click(screen.getByRole("button", { name: "Yes, decline" }));
  expect(await screen.findByText("The reason must be at most 200 characters.")).toBeTruthy();
  expect(seen.filter((r) => r.method === "PUT")).toHaveLength(0);
  fireEvent.change(screen.getByLabelText("Reason for the member (optional)"), { target: { value: "   " } });
  fireEvent.click(screen.getByRole("button", { name: "Yes, decline" }));
  expect(await screen.findByText("Request successfully declined.")).toBeTruthy();
  expect(await seen.find((r) => r.method === "PUT")!.json()).toEqual({ status: "declined" });
});

test("a refused decision shows the server's reason, else 'Failed to process request.'", async () => {
  let answer = json({ msg: "This request has already been processed." }, 409);
  serve({ decided: () => answer });
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Decline deposit of Ada" }));
  await dialog();
  fireEvent.click(screen.getByRole("button", { name: "Yes, decline" }));
  expect(await screen.findByText("This request has already been processed.")).toBeTruthy();
  answer = new Response("", { status: 422 });
  await waitFor(() => expect(screen.getByRole("button", { name: "Decline deposit of Ada" }).hasAttribute("disabled")).toBe(false));
  await waitFor(() => expect(screen.queryByRole("dialog") === null).toBe(true));
  fireEvent.click(screen.getByRole("button", { name: "Decline deposit of Ada" }));
  await dialog();
  fireEvent.click(screen.getByRole("button", { name: "Yes, decline" }));
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

/** A page of the list as the server answers it: the rows, and the total in X-Total-Count. */
function pageOf(rows: unknown[], total: number) {
  const answer = json(rows);
  answer.headers.set("X-Total-Count", String(total));
  return answer;
}

test("the pending lists come a page of 50 at a time, with the total shown, and Next asks for the next page", async () => {
  const many = (page: number) =>
    Array.from({ length: page < 3 ? 50 : 20 }, (_, i) => ({ ...deposit, _id: `d${(page - 1) * 50 + i}`, userName: `Member ${(page - 1) * 50 + i}` }));
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (url.pathname === "/api/admin/deposits") return pageOf(many(Number(url.searchParams.get("page"))), 120);
    return pageOf([], 0);
  });
  renderClient(<AdminDashboardPage />, { me: admin });
  expect(await screen.findByText("Showing 1–50 of 120 pending deposits")).toBeTruthy();
  expect(screen.getAllByRole("button", { name: /^Accept deposit of / })).toHaveLength(50);
  expect(screen.getByText("Page 1 of 3")).toBeTruthy();
  const asked = () => seen.filter((r) => new URL(r.url).pathname === "/api/admin/deposits").map((r) => new URL(r.url).search);
  expect(asked()).toEqual(["?status=pending&page=1&limit=50"]);
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Showing 51–100 of 120 pending deposits")).toBeTruthy();
  fireEvent.click(await screen.findByRole("button", { name: "Next" }));
  expect(await screen.findByText("Showing 101–120 of 120 pending deposits")).toBeTruthy();
  expect(screen.getAllByRole("button", { name: /^Accept deposit of / })).toHaveLength(20);
  expect((screen.getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(screen.getByRole("button", { name: "Previous" }));
  expect(await screen.findByText("Showing 51–100 of 120 pending deposits")).toBeTruthy();
  expect(asked()).toEqual(["?status=pending&page=1&limit=50", "?status=pending&page=2&limit=50", "?status=pending&page=3&limit=50"]);
  // The withdrawals have no pages of their own to turn: one pager on the screen.
  expect(screen.getAllByRole("navigation", { name: "Pagination" })).toHaveLength(1);
});

test("when decisions empty the last page, the dashboard steps back to the new last page", async () => {
  let total = 51;
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") {
      total = 50;
      return json({ msg: "Request successfully accepted." });
    }
    if (url.pathname === "/api/admin/deposits") {
      const page = Number(url.searchParams.get("page"));
      const count = Math.max(0, Math.min(50, total - (page - 1) * 50));
      return pageOf(Array.from({ length: count }, (_, i) => ({ ...deposit, _id: `d${page}-${i}`, userName: `P${page} ${i}` })), total);
    }
    return pageOf([], 0);
  });
  renderClient(<AdminDashboardPage />, { me: admin });
  await screen.findByText("Showing 1–50 of 51 pending deposits");
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  fireEvent.click(await screen.findByRole("button", { name: "Accept deposit of P2 0" }));
  await dialog();
  fireEvent.click(screen.getByRole("button", { name: "Yes, accept" }));
  expect(await screen.findByText("Showing 1–50 of 50 pending deposits")).toBeTruthy();
  expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
});

/** The admin moves between two of their pages, as through the sidebar (the app's own query client). */
function Admin() {
  const [page, setPage] = useState<"users" | "dashboard">("users");
  return (
    <>
      <button type="button" onClick={() => setPage("users")}>go users</button>
      <button type="button" onClick={() => setPage("dashboard")}>go dashboard</button>
      {page === "users" ? <AllUsersPage /> : <AdminDashboardPage />}
    </>
  );
}

test("after the admin accepts a deposit, All Users shows the member's new balance", async () => {
  let adaBalance = 0;
  let pending = [deposit];
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") {
      pending = [];
      adaBalance = 25;
      return json({ msg: "Request successfully accepted." });
    }
    if (url.pathname === "/api/admin/deposits") return json(pending);
    if (url.pathname === "/api/admin/withdrawals") return json([]);
    if (url.pathname === "/api/admin/users")
      return json({ users: [{ _id: "u-ada", name: "Ada", email: "ada@example.com", role: "user", balance: adaBalance, createdAt: "2026-01-01T00:00:00.000Z" }], totalPages: 1 });
    return json({ msg: "Not found." }, 404);
  });
  toast.remove();
  setToken("test-token");
  const client = createQueryClient(); // the app's: staleTime 15 s
  client.setQueryData(meKey, admin);
  render(
    <Provider store={store}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <Admin />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
  const balanceCell = async () => (await screen.findByRole("cell", { name: /\$$/ })).textContent;
  expect(await balanceCell()).toEndWith("0.00 $");
  fireEvent.click(screen.getByRole("button", { name: "go dashboard" }));
  fireEvent.click(await screen.findByRole("button", { name: "Accept deposit of Ada" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, accept" }));
  expect(await screen.findByText("Request successfully accepted.")).toBeTruthy();
  await waitFor(() => expect(screen.getAllByText("No pending requests.")).toHaveLength(2));
  fireEvent.click(screen.getByRole("button", { name: "go users" }));
  // Ada's balance is now 25.00 (the ledger credited the deposit): the list is read again, not kept.
  await waitFor(async () => expect(await balanceCell()).toEndWith("25.00 $"));
});
