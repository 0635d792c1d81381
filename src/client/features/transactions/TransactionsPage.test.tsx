import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import TransactionsPage from "./TransactionsPage";

useDom();

const me = makeMe();
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
    const page = Number(url.searchParams.get("page"));
    const transactions =
      page === 1
        ? [row("t2", "purchase", -5, 15, { program: "3p", level: 1 }), row("t1", "gift_in", 20, 20, { counterparty: { name: "Grace" } })]
        : [row("t0", "deposit", 1, 1)];
    return json({ transactions, page, totalPages: 2 });
  });
  renderClient(<TransactionsPage />, { me });
  expect(await screen.findByText("Level purchase")).toBeTruthy();
  expect(screen.getByText("3P · Level 1")).toBeTruthy();
  expect(screen.getByText("-5.00 $")).toBeTruthy();
  expect(screen.getByText("Gift received")).toBeTruthy();
  expect(screen.getByText("+20.00 $")).toBeTruthy();
  expect(screen.getByText("Grace")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Deposit")).toBeTruthy();
  expect(seen.map((r) => new URL(r.url).search).filter(Boolean)).toEqual(["?page=1", "?page=2"]);
});

test("an empty statement says 'No transactions yet.'", async () => {
  serveFetch((request) => (new URL(request.url).pathname === "/api/auth" ? json(wireMe(me)) : json({ transactions: [], page: 1, totalPages: 1 })));
  renderClient(<TransactionsPage />, { me });
  expect(await screen.findByText("No transactions yet.")).toBeTruthy();
});
