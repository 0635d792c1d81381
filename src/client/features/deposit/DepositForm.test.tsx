import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderClient } from "../../../testing/renderClient";
import { DepositForm } from "./DepositForm";

useDom();

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const KEY = /^[0-9a-f-]{36}$/;
const submit = () => fireEvent.click(screen.getByRole("button", { name: "Submit deposit" }));

test("the deposit form names every missing field and sends nothing", async () => {
  const seen = serveFetch(() => json({}));
  renderClient(<DepositForm />);
  submit();
  expect(await screen.findByText("Wallet address is required.")).toBeTruthy();
  expect(screen.getByText("Transaction ID is required.")).toBeTruthy();
  expect(screen.getByText("Amount is required.")).toBeTruthy();
  expect(seen).toHaveLength(0);
});

test("the deposit form refuses an amount below the 1 USDT minimum", async () => {
  const seen = serveFetch(() => json({}));
  renderClient(<DepositForm />);
  fill("Your wallet address", "TXyz");
  fill("Transaction ID", "abc123");
  fill("Amount (USDT)", "0.5");
  submit();
  expect(await screen.findByText("The minimum deposit is 1 USDT.")).toBeTruthy();
  fill("Amount (USDT)", "-3");
  submit();
  expect(await screen.findByText("Please enter a valid positive amount.")).toBeTruthy();
  expect(seen).toHaveLength(0);
});

test("a valid deposit is posted, shows the server's message and empties the form", async () => {
  const seen = serveFetch(() => json({ msg: "Deposit request submitted successfully." }, 201));
  renderClient(<DepositForm />);
  fill("Your wallet address", "TXyz");
  fill("Transaction ID", "abc123");
  fill("Amount (USDT)", "12.50");
  submit();
  expect(await screen.findByText("Deposit request submitted successfully.")).toBeTruthy();
  expect(await seen[0]!.json()).toEqual({ address: "TXyz", transactionId: "abc123", amount: "12.50" });
  expect(seen[0]!.headers.get("Idempotency-Key")).toMatch(KEY);
  await waitFor(() => expect((screen.getByLabelText("Amount (USDT)") as HTMLInputElement).value).toBe(""));
});

test("a refused deposit shows the server's reason, or 'Submission failed.' when it gave none", async () => {
  serveFetch(() => json({ msg: "This transaction ID has already been submitted." }, 400));
  renderClient(<DepositForm />);
  fill("Your wallet address", "TXyz");
  fill("Transaction ID", "abc123");
  fill("Amount (USDT)", "5");
  submit();
  expect(await screen.findByText("This transaction ID has already been submitted.")).toBeTruthy();
  serveFetch(() => new Response("boom", { status: 502 }));
  submit();
  expect(await screen.findByText("Submission failed.")).toBeTruthy();
});
