import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { useState } from "react";
import { Provider } from "jotai";
import { QueryClientProvider } from "@tanstack/react-query";
import toast, { Toaster } from "react-hot-toast";
import { MemoryRouter } from "react-router";
import { createQueryClient } from "../../app/queryClient";
import { meKey } from "../../lib/me";
import { setToken, store } from "../../lib/session";
import { makeMe, wireMe } from "../../../testing/renderClient";
import AdminDashboardPage from "./AdminDashboardPage";
import AllUsersPage from "../users/AllUsersPage";

useDom();
closeDialogsAfterEach();

const admin = makeMe({ role: "admin", id: "root" });
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
};

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
