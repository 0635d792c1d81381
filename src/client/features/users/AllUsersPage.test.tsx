import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AllUsersPage from "./AllUsersPage";

useDom();

const admin = makeMe({ role: "admin" });
const ada = { _id: "u1", name: "Ada", email: "ada@example.com", role: "user", balance: 12.5, createdAt: "2026-01-02T00:00:00.000Z" };

function serve(users: (url: URL) => Response) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "DELETE") return json({ msg: "User deleted successfully!" });
    return users(url);
  });
}

test("the user list asks for page 1 with 10 per page and shows balances as '12.50 $'", async () => {
  const seen = serve(() => json({ users: [ada], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  expect(await screen.findByText("12.50 $")).toBeTruthy();
  expect(new URL(seen.find((r) => r.url.includes("/admin/users"))!.url).search).toBe("?page=1&limit=10");
});

test("a failed user list says 'Failed to fetch users.' under 'An Error Occurred'", async () => {
  serve(() => new Response("", { status: 500 }));
  renderClient(<AllUsersPage />, { me: admin });
  expect(await screen.findByRole("heading", { name: "An Error Occurred" })).toBeTruthy();
  expect(screen.getByText("Failed to fetch users.")).toBeTruthy();
});

test("a search with no match says 'No users found for your search criteria.'", async () => {
  serve((url) => json({ users: url.searchParams.get("search") ? [] : [ada], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  await screen.findByText("ada@example.com");
  fireEvent.change(screen.getByLabelText("Search users"), { target: { value: "zzz" } });
  expect(await screen.findByText("No users found for your search criteria.")).toBeTruthy();
});

test("deleting a user asks first, then says 'User deleted successfully!'", async () => {
  const seen = serve(() => json({ users: [ada], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Delete Ada" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, delete!" }));
  expect(await screen.findByText("User deleted successfully!")).toBeTruthy();
  expect(new URL(seen.find((r) => r.method === "DELETE")!.url).pathname).toBe("/api/admin/users/u1");
});

test("a gift from system funds is confirmed first, naming the member and the amount; cancelling sends nothing and keeps the form", async () => {
  const seen = serve(() => json({ users: [ada], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
  fireEvent.change(await screen.findByLabelText("Amount (USDT)"), { target: { value: "1250.5" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  const confirmation = await screen.findByRole("dialog", { name: "Send this gift?" });
  expect(confirmation.textContent).toContain("1250.50\u00a0$ from system funds will be credited to Ada (ada@example.com).");
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("dialog", { name: "Send this gift?" }) === null).toBe(true));
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
  // The gift form is still there, with what was typed.
  expect((screen.getByLabelText("Amount (USDT)") as HTMLInputElement).value).toBe("1250.5");
});

test("an amount above 1,000,000 says so in the gift form", async () => {
  serve(() => json({ users: [ada], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
  fireEvent.change(await screen.findByLabelText("Amount (USDT)"), { target: { value: "1000000.01" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  expect(await screen.findByText("Amount must be at most 1,000,000 USDT.")).toBeTruthy();
});

test("a gift from system funds posts the amount under a new Idempotency-Key per gift", async () => {
  const sent = "Gift sent successfully from system funds!";
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "POST") return json({ msg: sent });
    return json({ users: [ada], totalPages: 1 });
  });
  renderClient(<AllUsersPage />, { me: admin });
  for (const count of [1, 2]) {
    fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
    fireEvent.change(await screen.findByLabelText("Amount (USDT)"), { target: { value: "5" } });
    fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
    fireEvent.click(await screen.findByRole("button", { name: "Yes, send it" }));
    // Wait on the toast (a cheap query) before the dialog: polling getByRole while the request runs starves it.
    await waitFor(() => expect(screen.getAllByText(sent)).toHaveLength(count));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  }
  const posts = seen.filter((r) => r.method === "POST");
  expect(posts.map((r) => new URL(r.url).pathname)).toEqual(["/api/admin/users/u1/gift", "/api/admin/users/u1/gift"]);
  expect(await posts[0]!.json()).toEqual({ amount: "5.00" });
  const [first, second] = posts.map((r) => r.headers.get("Idempotency-Key"));
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first!);
});

test("an admin's row offers neither Gift nor Delete: gifts from system funds go to members only", async () => {
  const root = { _id: "a1", name: "Root", email: "admin@example.com", role: "admin", balance: 0, createdAt: "2026-01-01T00:00:00.000Z" };
  serve(() => json({ users: [ada, root], totalPages: 1 }));
  renderClient(<AllUsersPage />, { me: admin });
  expect(await screen.findByRole("button", { name: "Gift to Ada" })).toBeTruthy();
  expect(screen.getByText("admin@example.com")).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Gift to Root" })).toBeNull();
  expect(screen.queryByRole("button", { name: "Delete Root" })).toBeNull();
});

test("a gift the server refuses (above ADMIN_GIFT_MAX) shows the server's reason", async () => {
  const refusal = { msg: "A gift from system funds can be at most 10,000 USDT.", code: "admin_gift_too_large" };
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "POST") return json(refusal, 400);
    return json({ users: [ada], totalPages: 1 });
  });
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
  fireEvent.change(await screen.findByLabelText("Amount (USDT)"), { target: { value: "10000.01" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, send it" }));
  expect(await screen.findByText(refusal.msg)).toBeTruthy();
});

test("'Addresses' shows a member's own deposit addresses in a dialog, or says they have none yet", async () => {
  const OWN = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
  const bob = { ...ada, _id: "u2", name: "Bob", email: "bob@example.com" };
  const seen = serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (url.pathname === "/api/admin/users/u1/deposit-addresses")
      return json([{ network: "BEP20", index: 4, address: OWN, createdAt: "2026-03-01T10:00:00.000Z", sweptAt: null }]);
    if (url.pathname === "/api/admin/users/u2/deposit-addresses") return json([]);
    return json({ users: [ada, bob], totalPages: 1 });
  });
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Addresses of Ada" }));
  const dialog = await screen.findByRole("dialog", { name: "Deposit addresses of Ada" });
  expect(await within(dialog).findByText("BEP20 (BNB Smart Chain)")).toBeTruthy();
  expect(within(dialog).getByRole("button", { name: "Copy BEP20 (BNB Smart Chain) deposit address" })).toBeTruthy();
  expect(within(dialog).getByText(/Index 4 · given/).textContent).toContain("never swept");
  fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
  fireEvent.click(screen.getByRole("button", { name: "Addresses of Bob" }));
  expect(await screen.findByText(/This member has no deposit address of their own yet/)).toBeTruthy();
  expect(seen.filter((r) => r.url.includes("deposit-addresses")).map((r) => new URL(r.url).pathname)).toEqual([
    "/api/admin/users/u1/deposit-addresses",
    "/api/admin/users/u2/deposit-addresses",
  ]);
});

test("a gift above ADMIN_GIFT_MAX, as the users list tells it, is refused at the field before any confirmation", async () => {
  const seen = serve(() => json({ users: [ada], totalPages: 1, adminGiftMax: 10_000 }));
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
  const amount = await screen.findByLabelText("Amount (USDT)");
  fireEvent.change(amount, { target: { value: "10000.01" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  expect(await screen.findByText("A gift from system funds can be at most 10,000 USDT.")).toBeTruthy();
  expect(amount.getAttribute("aria-invalid")).toBe("true");
  expect(screen.queryByRole("dialog", { name: "Send this gift?" })).toBeNull();
  expect(seen.filter((r) => r.method === "POST")).toHaveLength(0);
  // At the limit, the confirmation comes as before.
  fireEvent.change(amount, { target: { value: "10000" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  expect(await screen.findByRole("dialog", { name: "Send this gift?" })).toBeTruthy();
});

test("a limit the server names at the amount (a maximum changed since the list was read) is said at the field", async () => {
  const refusal = { msg: "A gift from system funds can be at most 500 USDT.", code: "admin_gift_too_large", field: "amount" };
  serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "POST") return json(refusal, 400);
    return json({ users: [ada], totalPages: 1, adminGiftMax: 10_000 });
  });
  renderClient(<AllUsersPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: "Gift to Ada" }));
  const amount = await screen.findByLabelText("Amount (USDT)");
  fireEvent.change(amount, { target: { value: "600" } });
  fireEvent.click(screen.getByRole("button", { name: "Send gift" }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, send it" }));
  await waitFor(() => expect(amount.getAttribute("aria-invalid")).toBe("true"));
  expect(screen.getAllByText(refusal.msg)).toHaveLength(1);
});
