import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AdminDepositPage from "./AdminDepositPage";
import AdminWithdrawPage from "./AdminWithdrawPage";

useDom();

const admin = makeMe({ role: "admin" });
const deposit = (i: number) => ({
  _id: `d${i}`,
  userEmail: `m${i}@example.com`,
  userName: `Member ${i}`,
  amount: 10,
  address: "TFrom",
  transactionId: `tx-${i}`,
  status: "accepted",
  createdAt: "2026-03-01T10:00:00.000Z",
  decidedAt: "2026-03-01T11:00:00.000Z",
  reason: null,
  network: "TRC20",
  canonicalTransactionId: null,
  chain: null,
  checking: false,
  toAddress: null,
  chainAmount: null,
});
const withdrawal = (i: number) => ({
  _id: `w${i}`,
  userEmail: `m${i}@example.com`,
  userName: `Member ${i}`,
  amount: 20,
  fee: 1.6,
  accountType: "USDT TRC20",
  accountNumber: `TOut${i}`,
  status: "accepted",
  createdAt: "2026-03-01T10:00:00.000Z",
  decidedAt: "2026-03-01T11:00:00.000Z",
  reason: null,
  payoutTransactionId: null,
  cancelled: false,
});

/** One page of `make`, 50 a page, out of `total`, with the total in X-Total-Count (unless `header` is false). */
function page(url: URL, total: number, make: (i: number) => unknown, header = true) {
  const n = Number(url.searchParams.get("page") ?? 1);
  const count = Math.max(0, Math.min(50, total - (n - 1) * 50));
  const answer = json(Array.from({ length: count }, (_, i) => make((n - 1) * 50 + i)));
  if (header) answer.headers.set("X-Total-Count", String(total));
  return answer;
}

test("the deposit history pages by 50 with the total shown; a new search starts again on its first page", async () => {
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return page(url, url.searchParams.get("search") ? 3 : 130, deposit);
  });
  renderClient(<AdminDepositPage />, { me: admin });
  expect(await screen.findByText("Showing 1–50 of 130 deposits")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Showing 51–100 of 130 deposits")).toBeTruthy();
  expect(screen.getByText("Page 2 of 3")).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "member 1" } });
  expect(await screen.findByText("Showing 1–3 of 3 deposits")).toBeTruthy();
  expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
  const asked = seen.filter((r) => new URL(r.url).pathname === "/api/admin/deposits").map((r) => new URL(r.url).search);
  expect(asked).toEqual(["?page=1&limit=50", "?page=2&limit=50", "?search=member+1&page=1&limit=50"]);
});

test("the withdrawal history shows its total, one of one too", async () => {
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return page(url, url.searchParams.get("search") ? 1 : 75, withdrawal);
  });
  renderClient(<AdminWithdrawPage />, { me: admin });
  expect(await screen.findByText("Showing 1–50 of 75 withdrawals")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Showing 51–75 of 75 withdrawals")).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "TOut0" } });
  expect(await screen.findByText("Showing 1–1 of 1 withdrawal")).toBeTruthy();
});

test("a declined withdrawal pays nothing: 'To send' shows none, and the histories show the reason the member was given", async () => {
  const declined = { ...withdrawal(0), fee: null, status: "declined", reason: "Wallet on a sanctions list" };
  const pending = { ...withdrawal(1), fee: null, status: "pending" };
  const declinedDeposit = { ...deposit(2), status: "declined", reason: "No such transaction" };
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return json(url.pathname.endsWith("/withdrawals") ? [declined, pending, withdrawal(3)] : [declinedDeposit]);
  });
  const view = renderClient(<AdminWithdrawPage />, { me: admin });
  const row = (await screen.findByText("Member 0")).closest("tr")!;
  expect(within(row).queryByText(/18\.40/)).toBeNull();
  expect(within(within(row).getByText("To send").closest("td")!).getByText("—")).toBeTruthy();
  expect(within(row).getByText("Reason: Wallet on a sanctions list")).toBeTruthy();
  // Pending: what would be sent (20 less the 8% fee); accepted: the amount less its recorded fee.
  expect(within(screen.getByText("Member 1").closest("tr")!).getByText(/18\.40/)).toBeTruthy();
  expect(within(screen.getByText("Member 3").closest("tr")!).getByText(/18\.40/)).toBeTruthy();
  view.unmount();
  renderClient(<AdminDepositPage />, { me: admin });
  expect(await screen.findByText("Reason: No such transaction")).toBeTruthy();
});

test("an answer without X-Total-Count (an earlier server, every request at once) counts what arrived", async () => {
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return json(Array.from({ length: 7 }, (_, i) => deposit(i)));
  });
  renderClient(<AdminDepositPage />, { me: admin });
  expect(await screen.findByText("Showing 1–7 of 7 deposits")).toBeTruthy();
  expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
});

test("an empty history still says 'No deposits found.'", async () => {
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    return page(url, 0, deposit);
  });
  renderClient(<AdminDepositPage />, { me: admin });
  expect(await screen.findByText("No deposits found.")).toBeTruthy();
});

test("a deposit to a member's own address shows that address and, when it says more, the exact amount on chain", async () => {
  const OWN = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
  const rows = [
    { ...deposit(1), network: "BEP20", address: "0x52908400098527886E0F7030069857D2E4169EE7", toAddress: OWN, chainAmount: "10.005" },
    { ...deposit(2), network: "BEP20", address: "0x52908400098527886E0F7030069857D2E4169EE7", toAddress: OWN, chainAmount: "10.00" },
    deposit(3),
  ];
  serveFetch((request) => (new URL(request.url).pathname === "/api/auth" ? json(wireMe(admin)) : json(rows)));
  renderClient(<AdminDepositPage />, { me: admin });
  const own = within((await screen.findByText("Member 1")).closest("tr")!);
  expect(own.getByText("10.005 USDT on chain")).toBeTruthy();
  expect(own.getByText("To the member's address")).toBeTruthy();
  expect(own.getByRole("button", { name: "Copy member's deposit address" })).toBeTruthy();
  const same = within(screen.getByText("Member 2").closest("tr")!);
  expect(same.getByText("To the member's address")).toBeTruthy();
  expect(same.queryByText(/USDT on chain/)).toBeNull();
  const claimed = within(screen.getByText("Member 3").closest("tr")!);
  expect(claimed.queryByText("To the member's address")).toBeNull();
});
