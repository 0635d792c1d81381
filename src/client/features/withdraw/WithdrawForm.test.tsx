import { json, serveFetch, useDom } from "../../../testing/dom";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { MSG } from "../../../shared/messages";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import { estimateWithdrawal } from "../../lib/withdrawalEstimate";
import { WithdrawForm } from "./WithdrawForm";

useDom();

// Balance 100 with 30 held by a pending withdrawal: 70 available.
const me = makeMe({ balance: 10_000n, pendingWithdrawalsTotal: 3_000n });
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** The form's button: it opens the review, which alone sends. */
const submit = () => fireEvent.click(screen.getByRole("button", { name: "Review withdrawal" }));
const send = () => fireEvent.click(screen.getByRole("button", { name: "Send withdrawal" }));
const serveMe = () => serveFetch((r) => (new URL(r.url).pathname === "/api/auth" ? json(wireMe(me)) : json({ msg: "Withdrawal request submitted." }, 201)));

test("the withdrawal form shows the available balance: balance minus pending withdrawals", () => {
  serveMe();
  renderClient(<WithdrawForm />, { me });
  expect(screen.getByText("70.00 $")).toBeTruthy();
});

test("a withdrawal above the available balance says so and sends nothing", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "70.01");
  submit();
  expect(await screen.findByText("Withdrawal amount cannot exceed your available balance.")).toBeTruthy();
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
});

test("a zero or negative withdrawal asks for a valid positive amount", async () => {
  serveMe();
  renderClient(<WithdrawForm />, { me });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "0");
  submit();
  expect(await screen.findByText("Please enter a valid positive withdrawal amount.")).toBeTruthy();
  fill("Amount (USDT)", "-5");
  submit();
  expect(await screen.findByText("Please enter a valid positive withdrawal amount.")).toBeTruthy();
});

test("a withdrawal needs a wallet address and at least 1 USDT", async () => {
  serveMe();
  renderClient(<WithdrawForm />, { me });
  fill("Amount (USDT)", "0.5");
  submit();
  expect(await screen.findByText("Wallet address is required.")).toBeTruthy();
  expect(screen.getByText("The minimum withdrawal is 1 USDT.")).toBeTruthy();
});

test("before the user is loaded the form says 'User data not loaded yet.'", async () => {
  const seen = serveFetch(() => json({}));
  renderClient(<WithdrawForm />, { me: null });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "10");
  submit();
  expect(await screen.findByText("User data not loaded yet.")).toBeTruthy();
  expect(seen).toHaveLength(0);
});

test("the estimate shows the amount minus the 8% fee and that the full amount is deducted", () => {
  serveMe();
  renderClient(<WithdrawForm />, { me });
  fill("Amount (USDT)", "50");
  const estimate = screen.getByTestId("withdraw-estimate").textContent ?? "";
  expect(estimate).toContain("46.00 $");
  expect(estimate).toContain("(4.00 $)");
  expect(estimate).toContain("the full amount of 50.00 $ is deducted");
});

test("the withdrawal estimate rounds the fee half up to the cent, like the server", () => {
  expect(estimateWithdrawal("100")).toEqual({ amount: 10_000n, fee: 800n, receive: 9_200n });
  expect(estimateWithdrawal("1.06")).toEqual({ amount: 106n, fee: 8n, receive: 98n });
  expect(estimateWithdrawal("0")).toBeNull();
  expect(estimateWithdrawal("abc")).toBeNull();
});

test("a valid withdrawal posts the chosen network and shows the server's message", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fireEvent.change(screen.getByLabelText("Withdrawal method"), { target: { value: "USDT BEP20" } });
  fill("Wallet address", "0x52908400098527886E0F7030069857D2E4169EE7");
  fill("Amount (USDT)", "70");
  submit();
  send();
  expect(await screen.findByText("Withdrawal request submitted.")).toBeTruthy();
  const post = seen.find((r) => r.method === "POST")!;
  expect(await post.json()).toEqual({ accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: "70.00" });
  expect(post.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
});

test("an address of the other network is said beside the field, and nothing is sent", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fireEvent.change(screen.getByLabelText("Withdrawal method"), { target: { value: "USDT BEP20" } });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "70");
  submit();
  expect(await screen.findByText(/^A BEP20 \(BNB Smart Chain\) address starts with 0x/)).toBeTruthy();
  expect(seen.some((r) => r.method === "POST")).toBe(false);
});

// Spec: "It shows as an error toast, except 'No token, authorization denied' and 'Token is not
// valid', which are silent": a session that ended signs the member out, with no toast.
test("a withdrawal refused because the session ended shows no toast", async () => {
  serveFetch((request) => {
    if (new URL(request.url).pathname === "/api/auth") return json(wireMe(me));
    return json({ msg: "Token is not valid", code: "bad_token" }, 401);
  });
  renderClient(<WithdrawForm />, { me });
  fireEvent.change(screen.getByLabelText("Wallet address"), { target: { value: "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh" } });
  fireEvent.change(screen.getByLabelText("Amount (USDT)"), { target: { value: "10" } });
  submit();
  send();
  await act(() => Bun.sleep(300));
  expect(screen.queryAllByText("Token is not valid")).toEqual([]);
  expect(screen.queryAllByText("Submitting withdrawal...")).toEqual([]);
});

test("Enter pressed twice, then Send clicked twice (before the button shows itself disabled), sends one withdrawal; the next one, after the answer, is sent", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "50");
  const form = screen.getByLabelText("Amount (USDT)").closest("form")!;
  fireEvent.submit(form);
  fireEvent.submit(form);
  // Enter on the review sends nothing: only its button does.
  fireEvent.submit(form);
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
  const button = screen.getByRole("button", { name: "Send withdrawal" });
  fireEvent.click(button);
  fireEvent.click(button);
  expect(await screen.findByText("Withdrawal request submitted.")).toBeTruthy();
  await act(() => Bun.sleep(50));
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(1);
  // The form was cleared by the success: a new withdrawal.
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  fill("Amount (USDT)", "10");
  fireEvent.submit(form);
  send();
  await act(() => Bun.sleep(100));
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(2);
});

test("the review shows the network, the address as the network writes it, the amount, the fee and the net, and sends nothing until Send", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fireEvent.change(screen.getByLabelText("Withdrawal method"), { target: { value: "USDT BEP20" } });
  // Typed in lower case: the review shows its EIP-55 form, as the server keeps it.
  fill("Wallet address", " 0x52908400098527886e0f7030069857d2e4169ee7 ");
  fill("Amount (USDT)", "20");
  submit();
  const review = await screen.findByRole("region", { name: "Check your withdrawal" });
  const figures = within(review).getByLabelText("Withdrawal to send");
  const row = (term: string) => within(figures).getByText(term).nextElementSibling?.textContent;
  expect(row("Network")).toBe("USDT BEP20 · BEP20 (BNB Smart Chain)");
  expect(row("To address")).toBe("0x52908400098527886E0F7030069857D2E4169EE7");
  expect(row("Amount")).toBe("20.00 $");
  expect(row("Fee (8%)")).toBe("1.60 $");
  expect(row("You receive")).toBe("18.40 $");
  expect(document.activeElement?.textContent).toBe("Check your withdrawal");
  await act(() => Bun.sleep(50));
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
  // Edit goes back to the form as it was filled.
  fireEvent.click(within(review).getByRole("button", { name: "Edit" }));
  expect((screen.getByLabelText("Amount (USDT)") as HTMLInputElement).value).toBe("20");
  submit();
  send();
  expect(await screen.findByText("Withdrawal request submitted.")).toBeTruthy();
  const post = seen.find((r) => r.method === "POST")!;
  expect(await post.json()).toEqual({ accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: "20.00" });
});

test("a BEP20 address in mixed case whose checksum is wrong is refused at the field, before any review", async () => {
  const seen = serveMe();
  renderClient(<WithdrawForm />, { me });
  fireEvent.change(screen.getByLabelText("Withdrawal method"), { target: { value: "USDT BEP20" } });
  fill("Wallet address", "0x52908400098527886E0F7030069857D2E4169Ee7");
  fill("Amount (USDT)", "20");
  submit();
  expect(await screen.findByText(/its checksum \(the mix of upper and lower case\) does not match/)).toBeTruthy();
  expect(screen.queryByRole("region", { name: "Check your withdrawal" })).toBeNull();
  expect(seen.some((r) => r.method === "POST")).toBe(false);
});

test("a refusal the server sends with a field (a TRON checksum, the available balance) is shown at that field, back in the form, without a toast", async () => {
  const checksum = "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet.";
  let answer = () => json({ msg: checksum, code: "validation", field: "accountNumber" }, 400);
  serveFetch((r) => (new URL(r.url).pathname === "/api/auth" ? json(wireMe(me)) : answer()));
  renderClient(<WithdrawForm />, { me });
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZi");
  fill("Amount (USDT)", "10");
  submit();
  send();
  const address = await screen.findByLabelText("Wallet address");
  await waitFor(() => expect(address.getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText(checksum)).toHaveLength(1);
  await waitFor(() => expect(document.activeElement === address ? "address" : document.activeElement?.outerHTML.slice(0, 120)).toBe("address"));
  // Typing in the field clears the server's message.
  fill("Wallet address", "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh");
  expect(screen.queryByText(checksum)).toBeNull();
  // The balance moved meanwhile: the server's refusal lands at the amount.
  answer = () => json({ msg: MSG.exceedsAvailable, code: "exceeds_available", field: "amount" }, 400);
  submit();
  send();
  await waitFor(() => expect(screen.queryByLabelText("Amount (USDT)")?.getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText(MSG.exceedsAvailable)).toHaveLength(1);
});
