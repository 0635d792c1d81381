import { useDom } from "../../testing/dom";
import { screen } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient } from "../../testing/renderClient";
import { Header } from "./Header";

useDom();

const balanceText = () => screen.getByText("Balance", { selector: ".sm\\:inline" }).parentElement!.textContent;

test("the header shows the balance alone while nothing is held", () => {
  const me = makeMe({ balance: 1_250n, pendingWithdrawalsTotal: 0n });
  renderClient(<Header user={me} />, { me });
  expect(screen.getByText("12.50 $")).toBeTruthy();
  expect(screen.queryByText(/available/)).toBeNull();
});

test("while a withdrawal is held the header adds the available balance, in exact cents", () => {
  const me = makeMe({ balance: 1_250n, pendingWithdrawalsTotal: 500n });
  renderClient(<Header user={me} />, { me });
  expect(screen.getByText("12.50 $")).toBeTruthy();
  expect(screen.getByText("· 7.50 $ available")).toBeTruthy();
  expect(balanceText()).toBe("BalanceBalance12.50 $· 7.50 $ available");
});

test("cents stay exact where floats would not: 0.30 - 0.10 leaves 0.20", () => {
  const me = makeMe({ balance: 30n, pendingWithdrawalsTotal: 10n });
  renderClient(<Header user={me} />, { me });
  expect(screen.getByText("· 0.20 $ available")).toBeTruthy();
});
