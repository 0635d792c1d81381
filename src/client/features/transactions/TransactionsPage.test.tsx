import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import TransactionsPage from "./TransactionsPage";

useDom();

const me = makeMe();
const noRequests = { items: [], page: 1, totalPages: 1 };
const row = (id: string, kind: string, amount: number, balanceAfter: number, extra = {}) => ({
  id,
  createdAt: "2026-03-01T10:00:00.000Z",
  kind,
  amount,
  counterparty: null,
  balanceAfter,
  program: null,
  level: null,
  requestId: null,
  ...extra,
});

test("the statement shows kinds in words, signed amounts and the balance after, page by page", async () => {
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/user/requests") return json(noRequests);
    const page = Number(url.searchParams.get("page"));
    const transactions =
      page === 1
        ? [row("t2", "purchase", -5, 15, { program: "3p", level: 1 }), row("t1", "gift_in", 20, 20, { counterparty: { name: "Grace" } })]
        : [row("t0", "deposit", 1, 1)];
    return json({ transactions, page, totalPages: 2 });
  });
  renderClient(<TransactionsPage />, { me });
  const table = () => screen.getByRole("table", { name: "Your transactions, newest first" });
  expect(await screen.findByText("Level purchase", { selector: "td *" })).toBeTruthy();
  expect(within(table()).getByText("3P · Level 1")).toBeTruthy();
  expect(within(table()).getByText("-5.00 $")).toBeTruthy();
  expect(within(table()).getByText("Gift received")).toBeTruthy();
  expect(within(table()).getByText("+20.00 $")).toBeTruthy();
  expect(within(table()).getByText("Grace")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Deposit", { selector: "td *" })).toBeTruthy();
  const statementCalls = seen.filter((r) => new URL(r.url).pathname === "/api/user/transactions");
  expect(statementCalls.map((r) => new URL(r.url).search)).toEqual(["?page=1", "?page=2"]);
});

test("an admin gift reads 'Gift from the platform', a member's gift 'Gift received'", async () => {
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/user/requests") return json(noRequests);
    const transactions = [
      row("t2", "gift_in", 7, 27, { counterparty: { name: "the platform" }, fromPlatform: true }),
      row("t1", "gift_in", 20, 20, { counterparty: { name: "Grace" }, fromPlatform: false }),
    ];
    return json({ transactions, page: 1, totalPages: 1 });
  });
  renderClient(<TransactionsPage />, { me });
  const table = await screen.findByRole("table", { name: "Your transactions, newest first" });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(within(rows[0]!).getByText("Gift from the platform")).toBeTruthy();
  expect(within(rows[0]!).getByText("the platform")).toBeTruthy();
  expect(within(rows[1]!).getByText("Gift received")).toBeTruthy();
  expect(within(rows[1]!).getByText("Grace")).toBeTruthy();
});

test("an empty statement says 'No transactions yet.'", async () => {
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    return json(path === "/api/user/requests" ? noRequests : { transactions: [], page: 1, totalPages: 1 });
  });
  renderClient(<TransactionsPage />, { me });
  expect(await screen.findByText("No transactions yet.")).toBeTruthy();
});
