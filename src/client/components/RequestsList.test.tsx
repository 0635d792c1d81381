import { json, serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { environmentManager } from "@tanstack/react-query";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../shared/contract/member";
import { MSG } from "../../shared/messages";
import { closeDialogsAfterEach } from "../../testing/dialogs";
import type { Answer } from "../../shared/contract/wire";
import { makeMe, renderClient, wireMe } from "../../testing/renderClient";
import DepositPage from "../features/deposit/DepositPage";
import { CONFIRMING_POLL_MS, useMyRequests } from "../features/myRequests/api/getMyRequests";
import WithdrawPage from "../features/withdraw/WithdrawPage";
import { RequestsList } from "./RequestsList";

useDom();
closeDialogsAfterEach();

type Page = Answer<typeof MEMBER.requests.response>;
type Item = Page["items"][number];

const me = makeMe({ balance: 10_000n });
const SITE_CONFIG = {
  depositWalletAddress: "TDepositAddr",
  networks: [
    { network: "TRC20", depositAddress: "TDepositAddr", verified: false, confirmations: 20, ownAddresses: false },
    { network: "BEP20", depositAddress: "0xDepositAddr", verified: false, confirmations: 15, ownAddresses: false },
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
  toAddress: null,
  confirmations: null,
  belowMinimum: false,
  chainAmount: null,
  address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  net: null,
  cancelled: false,
  ...fields,
});
/** The answer of GET /api/user/requests as the server sends it: built through the contract. */
const wirePage = (items: Item[], page = 1, totalPages = 1) => z.encode(MEMBER.requests.response, { items, page, totalPages });

const declinedDeposit = request("d1", { amount: 2_550n, status: "declined", reason: "No such transaction on TRON.", decidedAt: at(2) });
const acceptedWithdrawal = request("w1", { type: "withdrawal", amount: 5_000n, status: "accepted", method: "USDT BEP20", fee: 400n, net: 4_600n, decidedAt: at(3) });
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

const OWN = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const ownTx = (n: number) => n.toString(16).padStart(64, "0");

test("transfers to the member's own address: confirming, below the minimum, the address they went to and the exact amount on chain", async () => {
  const confirming = request("c1", { network: "BEP20", transactionId: `0x${ownTx(1)}`, toAddress: OWN, confirmations: { seen: 1, required: 2 }, chainAmount: "10" });
  const below = request("b1", { network: "BEP20", amount: 50n, transactionId: `0x${ownTx(2)}`, toAddress: OWN, belowMinimum: true, chainAmount: "0.5" });
  const belowCredited = request("b2", { network: "BEP20", amount: 90n, status: "accepted", decidedAt: at(2), transactionId: `0x${ownTx(3)}`, toAddress: OWN, belowMinimum: true, chainAmount: "0.9" });
  const exact = request("e1", { network: "BEP20", amount: 1_000n, status: "accepted", decidedAt: at(3), transactionId: `0x${ownTx(4)}`, toAddress: OWN, chainAmount: "10.005" });
  serve(() => wirePage([confirming, below, belowCredited, exact, declinedDeposit]));
  renderClient(<Both />, { me });
  const table = await screen.findByRole("table", { name: /Your deposit and withdrawal requests/ });
  const [c1, b1, b2, e1, claim] = within(table).getAllByRole("row").slice(1) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement, HTMLElement];

  expect(within(c1).getByText("Pending")).toBeTruthy();
  expect(within(c1).getByText("Confirming 1 of 2")).toBeTruthy();
  expect(within(c1).queryByText(/on chain/)).toBeNull(); // 10 on chain is the 10.00 $ shown
  const to = within(c1).getByText("0x9858…da94");
  expect(to.getAttribute("title")).toBe(OWN);
  expect(to.parentElement!.textContent).toBe("to your address 0x9858…da94");

  expect(within(b1).getByText("Received below the minimum: not credited")).toBeTruthy();
  expect(within(b1).queryByText(/Confirming/)).toBeNull();
  // Credited by an admin after all: no longer "not credited".
  expect(within(b2).getByText("Accepted")).toBeTruthy();
  expect(within(b2).queryByText("Received below the minimum: not credited")).toBeNull();

  expect(within(e1).getByText("10.00 $")).toBeTruthy();
  expect(within(e1).getByText("10.005 USDT on chain")).toBeTruthy();

  // A claimed deposit names no address of the member's.
  expect(within(claim).queryByText(/to your address/)).toBeNull();
});

test("while a transfer is confirming the list reads itself again, without a reload, until it is credited", async () => {
  let seen = 1;
  const confirming = () => request("c1", { network: "BEP20", transactionId: `0x${ownTx(1)}`, toAddress: OWN, confirmations: { seen, required: 2 }, chainAmount: "10" });
  const credited = request("c1", { network: "BEP20", status: "accepted", decidedAt: at(2), transactionId: `0x${ownTx(1)}`, toAddress: OWN, chainAmount: "10" });
  const calls = serve(() => wirePage([seen < 3 ? confirming() : credited]));
  // React Query was loaded before this file's DOM existed, so it took itself for a server, which never polls.
  const wasServer = environmentManager.isServer();
  environmentManager.setIsServer(() => false);
  try {
    renderClient(<Both />, { me });
    expect(await screen.findByText("Confirming 1 of 2")).toBeTruthy();
    seen = 3;
    expect(await screen.findByText("Accepted", {}, { timeout: CONFIRMING_POLL_MS + 2_000 })).toBeTruthy();
    expect(screen.queryByText(/Confirming/)).toBeNull();
    expect(requestsCalls(calls)).toEqual(["?page=1", "?page=1"]);
    // Nothing confirming any more: the list stops polling.
    await new Promise((resolve) => setTimeout(resolve, CONFIRMING_POLL_MS + 500));
    expect(requestsCalls(calls)).toHaveLength(2);
  } finally {
    environmentManager.setIsServer(() => wasServer);
  }
}, 20_000);

const ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const pendingWithdrawal = request("w2", { type: "withdrawal", amount: 2_000n, method: "USDT TRC20", address: ADDRESS, net: 1_840n, createdAt: at(5) });
const cancelledWithdrawal = request("w3", {
  type: "withdrawal",
  amount: 3_000n,
  status: "declined",
  method: "USDT TRC20",
  reason: "Cancelled by the member.",
  decidedAt: at(6),
  cancelled: true,
});

test("a withdrawal shows where it is paid, its network, its fee and what arrives; a cancelled one says 'Cancelled by you', not declined", async () => {
  serve(() => wirePage([pendingWithdrawal, acceptedWithdrawal, cancelledWithdrawal]));
  renderClient(<Both />, { me });
  const table = await screen.findByRole("table", { name: /Your deposit and withdrawal requests/ });
  const [pending, accepted, cancelled] = within(table).getAllByRole("row").slice(1) as [HTMLElement, HTMLElement, HTMLElement];
  // Pending: the fee it will have and the net (20.00 less 8%), and the address.
  expect(within(pending).getByText("1.60 $")).toBeTruthy();
  expect(within(pending).getByText("18.40 $").parentElement!.textContent).toBe("To receive 18.40 $");
  expect(within(pending).getByTitle(ADDRESS)).toBeTruthy();
  expect(within(pending).getByText("TRC20 (TRON)")).toBeTruthy();
  expect(within(accepted).getByText("46.00 $").parentElement!.textContent).toBe("Paid out 46.00 $");
  expect(within(cancelled).getByText("Cancelled by you")).toBeTruthy();
  expect(within(cancelled).queryByText("Declined")).toBeNull();
  expect(within(cancelled).queryByText(/Reason:/)).toBeNull();
  expect(within(cancelled).queryByText(/Fee/)).toBeNull();
  // Only a pending withdrawal can be cancelled.
  expect(within(pending).getByRole("button", { name: "Cancel withdrawal of 20.00\u00a0$" })).toBeTruthy();
  expect(within(accepted).queryByRole("button", { name: /^Cancel/ })).toBeNull();
  expect(within(cancelled).queryByRole("button", { name: /^Cancel/ })).toBeNull();
});

function serveCancel(cancel: () => Response) {
  let items = [pendingWithdrawal];
  const seen = serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/user/requests") return json(wirePage(items));
    if (url.pathname === "/api/user/withdrawals/w2/cancel") {
      const answer = cancel();
      if (answer.status === 200) items = [{ ...pendingWithdrawal, status: "declined", cancelled: true, net: null, decidedAt: at(7), reason: "Cancelled by the member." }];
      if (answer.status === 409) items = [{ ...pendingWithdrawal, status: "accepted", fee: 160n, decidedAt: at(7) }];
      return answer;
    }
    return json({ msg: "Not found.", code: "not_found" }, 404);
  });
  return seen;
}

test("Cancel asks first; confirmed, it posts the cancel with an Idempotency-Key, then the balance and the list are read again", async () => {
  const seen = serveCancel(() => json({ msg: MSG.withdrawalCancelled }));
  renderClient(<WithdrawPage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: "Cancel withdrawal of 20.00\u00a0$" }));
  const confirmation = await screen.findByRole("dialog", { name: "Cancel this withdrawal?" });
  expect(confirmation.textContent).toContain(`20.00\u00a0$ to ${ADDRESS} will not be paid`);
  fireEvent.click(within(confirmation).getByRole("button", { name: "Yes, cancel it" }));
  expect(await screen.findByText(MSG.withdrawalCancelled)).toBeTruthy();
  expect(await screen.findByText("Cancelled by you")).toBeTruthy();
  const post = seen.find((r) => r.method === "POST")!;
  expect(new URL(post.url).pathname).toBe("/api/user/withdrawals/w2/cancel");
  expect(post.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
  const reads = (path: string) => seen.filter((r) => r.method === "GET" && new URL(r.url).pathname === path).length;
  await waitFor(() => expect(reads("/api/user/requests")).toBe(2));
  // The balance was the test's own until then: read from the server once the hold is gone.
  expect(reads("/api/auth")).toBeGreaterThanOrEqual(1);
});

test("Cancel dismissed sends nothing; one an admin decided first says so and the list shows the decision", async () => {
  const seen = serveCancel(() => json({ msg: "This request has already been processed.", code: "already_processed" }, 409));
  renderClient(<WithdrawPage />, { me });
  const button = await screen.findByRole("button", { name: "Cancel withdrawal of 20.00\u00a0$" });
  fireEvent.click(button);
  fireEvent.click(within(await screen.findByRole("dialog", { name: "Cancel this withdrawal?" })).getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("dialog", { name: "Cancel this withdrawal?" }) === null).toBe(true));
  expect(seen.some((r) => r.method === "POST")).toBe(false);
  fireEvent.click(button);
  fireEvent.click(within(await screen.findByRole("dialog", { name: "Cancel this withdrawal?" })).getByRole("button", { name: "Yes, cancel it" }));
  expect(await screen.findByText("This request has already been processed.")).toBeTruthy();
  expect(await screen.findByText("Accepted")).toBeTruthy();
  expect(screen.queryByRole("button", { name: /^Cancel withdrawal/ })).toBeNull();
});
