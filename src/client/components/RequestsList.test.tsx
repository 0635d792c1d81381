import { json, serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../shared/contract/member";
import type { Answer } from "../../shared/contract/wire";
import { makeMe, renderClient, wireMe } from "../../testing/renderClient";
import DepositPage from "../features/deposit/DepositPage";
import { useMyRequests } from "../features/myRequests/api/getMyRequests";
import WithdrawPage from "../features/withdraw/WithdrawPage";
import { RequestsList } from "./RequestsList";

useDom();

type Page = Answer<typeof MEMBER.requests.response>;
type Item = Page["items"][number];

const me = makeMe({ balance: 10_000n });
const SITE_CONFIG = {
  depositWalletAddress: "TDepositAddr",
  networks: [
    { network: "TRC20", depositAddress: "TDepositAddr", verified: false, confirmations: 20 },
    { network: "BEP20", depositAddress: "0xDepositAddr", verified: false, confirmations: 15 },
  ],
};
const at = (day: number) => new Date(Date.UTC(2026, 2, day, 10));
const request = (id: string, fields: Partial<Item>): Item => ({
  id,
  type: "deposit",
  amount: 1_000n,
  status: "pending",
  reason: null,
  createdAt: at(1),
  decidedAt: null,
  method: null,
  fee: null,
  network: "TRC20",
  transactionId: null,
  ...fields,
});
/** The answer of GET /api/user/requests as the server sends it: built through the contract. */
const wirePage = (items: Item[], page = 1, totalPages = 1) => z.encode(MEMBER.requests.response, { items, page, totalPages });

const declinedDeposit = request("d1", { amount: 2_550n, status: "declined", reason: "No such transaction on TRON.", decidedAt: at(2) });
const acceptedWithdrawal = request("w1", { type: "withdrawal", amount: 5_000n, status: "accepted", method: "USDT BEP20", fee: 400n, decidedAt: at(3) });
const pendingDeposit = request("d2", { amount: 1_000n, createdAt: at(4) });

function serve(pages: (page: number) => unknown) {
  return serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/user/requests") return json(pages(Number(url.searchParams.get("page"))));
    if (url.pathname === "/api/config") return json(SITE_CONFIG);
    return json({ msg: "Deposit request submitted successfully." }, 201);
  });
}
const requestsCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/requests").map((r) => new URL(r.url).search);

function Both() {
  return <RequestsList query={useMyRequests()} />;
}

test("the list shows both kinds with their status badges, the decline reason, the network and the fee", async () => {
  serve(() => wirePage([pendingDeposit, acceptedWithdrawal, declinedDeposit]));
  renderClient(<Both />, { me });
  const table = await screen.findByRole("table", { name: /Your deposit and withdrawal requests/ });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(rows).toHaveLength(3);
  expect(within(rows[0]!).getByText("Pending")).toBeTruthy();
  expect(within(rows[1]!).getByText("Withdrawal")).toBeTruthy();
  expect(within(rows[1]!).getByText("USDT BEP20")).toBeTruthy();
  expect(within(rows[1]!).getByText("Accepted")).toBeTruthy();
  expect(within(rows[1]!).getByText("50.00 $")).toBeTruthy();
  expect(within(rows[1]!).getByText("4.00 $")).toBeTruthy();
  expect(within(rows[2]!).getByText("Declined")).toBeTruthy();
  expect(within(rows[2]!).getByText("25.50 $")).toBeTruthy();
  expect(within(rows[2]!).getByText("Reason: No such transaction on TRON.")).toBeTruthy();
});

test("no requests at all: the empty state says so", async () => {
  serve(() => wirePage([]));
  renderClient(<Both />, { me });
  expect(await screen.findByText("You have no deposit or withdrawal requests yet.")).toBeTruthy();
});

test("a failed load offers to try again", async () => {
  serveFetch((r) => (new URL(r.url).pathname === "/api/auth" ? json(wireMe(me)) : json({ msg: "boom", code: "internal" }, 500)));
  renderClient(<Both />, { me });
  expect(await screen.findByText("Could not load your requests.")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
});

test("'Load more' reads the next page and adds it below", async () => {
  const seen = serve((page) => (page === 1 ? wirePage([pendingDeposit], 1, 2) : wirePage([declinedDeposit], 2, 2)));
  renderClient(<Both />, { me });
  await screen.findByText("Pending");
  fireEvent.click(screen.getByRole("button", { name: "Load more" }));
  expect(await screen.findByText("Reason: No such transaction on TRON.")).toBeTruthy();
  expect(screen.getByText("Pending")).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  expect(requestsCalls(seen)).toEqual(["?page=1", "?page=2"]);
});

test("a request made between two pages pushes the first page's last row onto the next: it is shown once", async () => {
  // Page 1 was read as [pending]; a new request then came first, so page 2 starts with pending again.
  serve((page) => (page === 1 ? wirePage([pendingDeposit], 1, 2) : wirePage([pendingDeposit, declinedDeposit], 2, 2)));
  renderClient(<Both />, { me });
  await screen.findByText("Pending");
  fireEvent.click(screen.getByRole("button", { name: "Load more" }));
  expect(await screen.findByText("Reason: No such transaction on TRON.")).toBeTruthy();
  expect(screen.getAllByText("Pending")).toHaveLength(1);
});

test("the withdrawal page asks the server for withdrawals only", async () => {
  const seen = serve(() => wirePage([acceptedWithdrawal]));
  renderClient(<WithdrawPage />, { me });
  const table = await screen.findByRole("table", { name: /Your withdrawal requests/ });
  expect(within(table).getAllByRole("row")).toHaveLength(2);
  expect(within(table).getByText("USDT BEP20")).toBeTruthy();
  expect(requestsCalls(seen)).toEqual(["?page=1&type=withdrawal"]);
});

test("the withdrawal page says when there are no withdrawals", async () => {
  serve(() => wirePage([]));
  renderClient(<WithdrawPage />, { me });
  expect(await screen.findByText("You have not requested any withdrawals yet.")).toBeTruthy();
});

test("the deposit page lists deposits, and a new deposit refreshes the list", async () => {
  let items = [declinedDeposit];
  const seen = serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/config") return json(SITE_CONFIG);
    if (url.pathname === "/api/user/requests") return json(wirePage(items));
    items = [pendingDeposit, declinedDeposit];
    return json({ msg: "Deposit request submitted successfully." }, 201);
  });
  renderClient(<DepositPage />, { me });
  expect(await screen.findByText("Reason: No such transaction on TRON.")).toBeTruthy();
  expect(screen.queryByText("Pending")).toBeNull();
  fireEvent.change(screen.getByLabelText("Your wallet address"), { target: { value: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } });
  fireEvent.change(screen.getByLabelText("Transaction ID"), { target: { value: "ab".repeat(32) } });
  fireEvent.change(screen.getByLabelText("Amount (USDT)"), { target: { value: "10" } });
  fireEvent.click(screen.getByRole("button", { name: "Submit deposit" }));
  expect(await screen.findByText("Pending")).toBeTruthy();
  const table = screen.getByRole("table", { name: /Your deposit requests/ });
  expect(within(table).getAllByRole("row")).toHaveLength(3);
  await waitFor(() => expect(requestsCalls(seen)).toEqual(["?page=1&type=deposit", "?page=1&type=deposit"]));
});
