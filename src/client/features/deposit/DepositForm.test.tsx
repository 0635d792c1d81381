import { json, serveFetch, useDom } from "../../../testing/dom";
import { MSG } from "../../../shared/messages";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderClient } from "../../../testing/renderClient";
import { DepositForm } from "./DepositForm";

useDom();

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const KEY = /^[0-9a-f-]{36}$/;
const TRON_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TX = "ab".repeat(32);
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
  fill("Your wallet address", TRON_ADDRESS);
  fill("Transaction ID", TX);
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
  fill("Your wallet address", TRON_ADDRESS);
  fill("Transaction ID", TX);
  fill("Amount (USDT)", "12.50");
  submit();
  expect(await screen.findByText("Deposit request submitted successfully.")).toBeTruthy();
  expect(await seen[0]!.json()).toEqual({ network: "TRC20", address: TRON_ADDRESS, transactionId: TX, amount: "12.50" });
  expect(seen[0]!.headers.get("Idempotency-Key")).toMatch(KEY);
  await waitFor(() => expect((screen.getByLabelText("Amount (USDT)") as HTMLInputElement).value).toBe(""));
});

test("a refused deposit shows the server's reason, or 'Submission failed.' when it gave none", async () => {
  serveFetch(() => json({ msg: "This transaction ID has already been submitted." }, 400));
  renderClient(<DepositForm />);
  fill("Your wallet address", TRON_ADDRESS);
  fill("Transaction ID", TX);
  fill("Amount (USDT)", "5");
  submit();
  expect(await screen.findByText("This transaction ID has already been submitted.")).toBeTruthy();
  serveFetch(() => new Response("refused", { status: 400 }));
  submit();
  expect(await screen.findByText("Submission failed.")).toBeTruthy();
  // A proxy's 502 says nothing of whether the request was stored: not "failed".
  serveFetch(() => new Response("boom", { status: 502 }));
  submit();
  expect(await screen.findByText(MSG.outcomeUnknown)).toBeTruthy();
});

test("the form refuses, with the reason, a transaction ID or an address that is not the network's, and sends nothing", async () => {
  const seen = serveFetch(() => json({}));
  renderClient(<DepositForm network="TRC20" />);
  fill("Your wallet address", "0x52908400098527886E0F7030069857D2E4169EE7");
  fill("Transaction ID", `0x${TX}`);
  fill("Amount (USDT)", "5");
  submit();
  expect(await screen.findByText(/A TRC20 \(TRON\) transaction ID is 64 characters 0-9 and a-f, without 0x/)).toBeTruthy();
  expect(screen.getByText(/A TRC20 \(TRON\) address starts with T/)).toBeTruthy();
  fill("Transaction ID", `${TX}\u200b`);
  expect(await screen.findByText(/invisible character/)).toBeTruthy();
  expect(seen).toHaveLength(0);
});

test("on BEP20 the form takes 0x IDs and addresses, and names the network in the request", async () => {
  const seen = serveFetch(() => json({ msg: "Deposit request submitted successfully." }, 201));
  renderClient(<DepositForm network="BEP20" />);
  expect(screen.getByText("Network: BEP20 (BNB Smart Chain)")).toBeTruthy();
  fill("Your wallet address", "0x52908400098527886E0F7030069857D2E4169EE7");
  fill("Transaction ID", `0X${TX.toUpperCase()}`);
  fill("Amount (USDT)", "7");
  submit();
  expect(await screen.findByText("Deposit request submitted successfully.")).toBeTruthy();
  expect(await seen[0]!.json()).toEqual({ network: "BEP20", address: "0x52908400098527886E0F7030069857D2E4169EE7", transactionId: `0x${TX}`, amount: "7.00" });
});

test("a refusal the server sends with a field (an ID already claimed, an address whose checksum fails) is said at that field, not as a toast", async () => {
  let answer = () => json({ msg: MSG.duplicateTransaction, code: "duplicate_transaction", field: "transactionId" }, 400);
  serveFetch(() => answer());
  renderClient(<DepositForm />);
  fill("Your wallet address", TRON_ADDRESS);
  fill("Transaction ID", TX);
  fill("Amount (USDT)", "5");
  submit();
  await waitFor(() => expect(screen.getByLabelText("Transaction ID").getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText(MSG.duplicateTransaction)).toHaveLength(1);
  const checksum = "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet.";
  answer = () => json({ msg: checksum, code: "validation", field: "address" }, 400);
  fill("Transaction ID", "cd".repeat(32));
  submit();
  await waitFor(() => expect(screen.getByLabelText("Your wallet address").getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText(checksum)).toHaveLength(1);
  expect(screen.queryByText(MSG.duplicateTransaction)).toBeNull();
});
