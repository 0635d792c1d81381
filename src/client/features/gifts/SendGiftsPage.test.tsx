import { json, serveFetch, useDom } from "../../../testing/dom";
import { MSG } from "../../../shared/messages";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import SendGiftsPage from "./SendGiftsPage";

useDom();

const me = makeMe();
// As the search answers a name: the email masked (docs/rules.md#gifts).
const grace = { _id: "u2", name: "Grace Hopper", email: "g***@example.com" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const type = (value: string) => fireEvent.change(screen.getByLabelText("Find a user"), { target: { value } });

function serve(found = [grace], gift: () => Response = () => json({ msg: "Gift sent successfully!" })) {
  return serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path === "/api/user/search") return json(found);
    if (path === "/api/user/gift") return gift();
    return json({ msg: "Not found." }, 404);
  });
}
const searches = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/search");

test("the gift search asks for 3 characters and sends nothing below that", async () => {
  const seen = serve();
  renderClient(<SendGiftsPage />, { me });
  expect(screen.getByText("Type at least 3 characters to search for a user.")).toBeTruthy();
  type("gr");
  await sleep(700);
  expect(searches(seen)).toHaveLength(0);
  expect(screen.getByText("Type at least 3 characters to search for a user.")).toBeTruthy();
});

test("the gift search sends one request 500 ms after typing stops", async () => {
  const seen = serve();
  renderClient(<SendGiftsPage />, { me });
  for (const text of ["gra", "grac", "grace"]) {
    type(text);
    await sleep(100);
  }
  // 400 ms after the last key: still waiting.
  await sleep(300);
  expect(searches(seen)).toHaveLength(0);
  expect(await screen.findByText("Grace Hopper", {}, { timeout: 1500 })).toBeTruthy();
  await sleep(600);
  expect(searches(seen).map((r) => new URL(r.url).search)).toEqual(["?search=grace"]);
});

test("a search with no match says 'No users found.'", async () => {
  serve([]);
  renderClient(<SendGiftsPage />, { me });
  type("nobody");
  expect(await screen.findByText("No users found.", {}, { timeout: 1500 })).toBeTruthy();
});

async function openGiftModal() {
  type("grace");
  fireEvent.click(await screen.findByRole("button", { name: "Send gift to Grace Hopper" }, { timeout: 1500 }));
  return screen.getByRole("dialog", { name: "Send a gift to Grace Hopper" });
}

test("the gift modal says what is wrong with the amount in the shared schema's words, and sends nothing until it is right", async () => {
  const seen = serve();
  renderClient(<SendGiftsPage />, { me });
  const dialog = await openGiftModal();
  for (const [amount, message] of [
    ["", "Amount is required."],
    ["0", "Please enter a valid positive amount."],
    ["-1", "Please enter a valid positive amount."],
    // As a deposit's or a withdrawal's amount says it: one error style.
    ["1.234", "Amount must have at most 2 decimal places."],
    ["1000000.01", "Amount must be at most 1,000,000 USDT."],
  ]) {
    fireEvent.change(within(dialog).getByLabelText("Gift amount (USDT)"), { target: { value: amount } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send gift" }));
    expect(await within(dialog).findByText(message!)).toBeTruthy();
  }
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
});

test("a gift above the balance, refused by the server at the amount, is said at the field, not as a toast", async () => {
  serve([grace], () => json({ msg: "Insufficient balance.", code: "insufficient_balance", field: "amount" }, 400));
  renderClient(<SendGiftsPage />, { me });
  const dialog = await openGiftModal();
  const amount = within(dialog).getByLabelText("Gift amount (USDT)");
  fireEvent.change(amount, { target: { value: "5" } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Send gift" }));
  await waitFor(() => expect(amount.getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText("Insufficient balance.")).toHaveLength(1);
  expect(within(dialog).getByText("Insufficient balance.")).toBeTruthy();
  // A new amount clears it.
  fireEvent.change(amount, { target: { value: "4" } });
  expect(screen.queryByText("Insufficient balance.")).toBeNull();
});

test("a gift goes to the chosen user by id, shows the server's message and closes the modal", async () => {
  const seen = serve();
  renderClient(<SendGiftsPage />, { me });
  const dialog = await openGiftModal();
  fireEvent.change(within(dialog).getByLabelText("Gift amount (USDT)"), { target: { value: "0.01" } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Send gift" }));
  expect(await screen.findByText("Gift sent successfully!")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  const post = seen.find((r) => r.method === "POST")!;
  // The search showed a masked email: the gift names the result by its id.
  expect(await post.json()).toEqual({ amount: "0.01", recipientId: "u2" });
  expect(within(screen.getByRole("list", { name: "Search results" })).getByText("g***@example.com")).toBeTruthy();
  expect(post.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
});

test("a refused gift without a server message says 'An error occurred.' and keeps the modal open; no answer at all says the gift may have gone", async () => {
  let answer = () => new Response("", { status: 400 });
  serve([grace], () => answer());
  renderClient(<SendGiftsPage />, { me });
  const dialog = await openGiftModal();
  fireEvent.change(within(dialog).getByLabelText("Gift amount (USDT)"), { target: { value: "5" } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Send gift" }));
  expect(await screen.findByText("An error occurred.")).toBeTruthy();
  expect(screen.getByRole("dialog")).toBeTruthy();
  // A proxy's 504 may come after the server gave the gift: not "failed".
  answer = () => new Response("", { status: 504 });
  await waitFor(() => expect(within(dialog).getByRole("button", { name: "Send gift" }).hasAttribute("disabled")).toBe(false));
  fireEvent.click(within(dialog).getByRole("button", { name: "Send gift" }));
  expect(await screen.findByText(MSG.outcomeUnknown)).toBeTruthy();
});

test("Escape closes the gift modal", async () => {
  serve();
  renderClient(<SendGiftsPage />, { me });
  await openGiftModal();
  fireEvent.keyDown(document, { key: "Escape" });
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
});

test("a refused search shows the server's sentence (too many searches says to wait), not only 'An error occurred.'", async () => {
  const throttled = "Too many searches (at most 30 a minute). Please wait a moment and try again.";
  serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path === "/api/user/search") return json({ msg: throttled, code: "throttled" }, 429);
    return json({ msg: "Not found.", code: "not_found" }, 404);
  });
  renderClient(<SendGiftsPage />, { me });
  fireEvent.change(screen.getByLabelText("Find a user"), { target: { value: "grace" } });
  expect(await screen.findByText(throttled, {}, { timeout: 1500 })).toBeTruthy();
  expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
});
