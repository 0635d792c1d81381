import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AdminDashboardPage from "./AdminDashboardPage";

useDom();

const admin = makeMe({ role: "admin" });
const TX = "ab".repeat(32);
const evidence = {
  verdict: "wrong_amount",
  checkedAt: "2026-03-01T10:05:00.000Z",
  found: true,
  status: "success",
  blockNumber: "1234",
  confirmations: 25,
  requiredConfirmations: 20,
  token: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  tokenIsUsdt: true,
  from: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  to: "TQrY8tryqsYVCYS3MFbtffiPp2ccyn4STm",
  amount: "24.99",
  transfers: 1,
  error: null,
};
const deposit = {
  _id: "d1",
  userEmail: "ada@example.com",
  userName: "Ada",
  amount: 25,
  address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  transactionId: TX,
  status: "pending",
  createdAt: "2026-03-01T10:00:00.000Z",
  decidedAt: null,
  reason: null,
  network: "TRC20",
  canonicalTransactionId: TX,
  chain: evidence,
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
  accountType: "USDT BEP20",
  accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7",
  status: "pending",
  createdAt: "2026-03-01T11:00:00.000Z",
  decidedAt: null,
  reason: null,
  payoutTransactionId: null,
  cancelled: false,
};

function serve(deposits: unknown[], withdrawals: unknown[]) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "PUT") return json({ msg: "Request successfully accepted." });
    if (url.pathname === "/api/admin/deposits") return json(deposits);
    if (url.pathname === "/api/admin/withdrawals") return json(withdrawals);
    return json([]);
  });
}

test("a pending deposit shows what the chain says beside it: the verdict, found, status, recipient, sender, token, amount on chain, confirmations", async () => {
  serve([deposit, { ...deposit, _id: "d2", transactionId: "tx-typed-by-hand", canonicalTransactionId: null, chain: null, checking: false }], []);
  renderClient(<AdminDashboardPage />, { me: admin });
  const table = await screen.findByRole("table", { name: "Pending deposits" });
  const [, first, second] = within(table).getAllByRole("row");
  const cells = within(first!);
  expect(cells.getByText("Amount on chain differs")).toBeTruthy();
  for (const text of ["Found", "Yes", "Status", "success", "Recipient", "Sender", "Token", "Amount on chain", "24.99 USDT", "Confirmations", "25 of 20", "TRC20 (TRON)"]) {
    expect(cells.getAllByText(text).length).toBeGreaterThan(0);
  }
  // An old request whose ID was typed by hand: said so, and no chain evidence.
  expect(within(second!).getByText(/Typed before IDs were checked/)).toBeTruthy();
  expect(within(second!).getByText("Not verified on chain: check it by hand")).toBeTruthy();
});

test("accepting a withdrawal takes the payout's transaction ID, checked against its network, and sends it", async () => {
  const seen = serve([], [withdrawal]);
  renderClient(<AdminDashboardPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Accept withdrawal of Bob" }));
  const field = (await screen.findByLabelText("Payout transaction ID on BEP20 (BNB Smart Chain) (optional)")) as HTMLInputElement;
  // A TRON-style ID on a BEP20 payout cannot be confirmed.
  fireEvent.change(field, { target: { value: TX } });
  fireEvent.click(screen.getByRole("button", { name: "Yes, accept" }));
  expect(await screen.findByText(/A BEP20 \(BNB Smart Chain\) transaction ID starts with 0x/)).toBeTruthy();
  expect(seen.filter((r) => r.method === "PUT")).toHaveLength(0);
  fireEvent.change(field, { target: { value: ` 0x${TX} ` } });
  fireEvent.click(screen.getByRole("button", { name: "Yes, accept" }));
  await waitFor(() => expect(seen.filter((r) => r.method === "PUT")).toHaveLength(1));
  const put = seen.find((r) => r.method === "PUT")!;
  expect(new URL(put.url).pathname).toBe("/api/admin/withdrawals/w1");
  expect(await put.json()).toEqual({ status: "accepted", transactionId: `0x${TX}` });
});
