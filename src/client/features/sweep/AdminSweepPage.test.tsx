import { closeDialogsAfterEach } from "../../../testing/dialogs";
import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AdminSweepPage from "./AdminSweepPage";

useDom();
closeDialogsAfterEach();

const admin = makeMe({ role: "admin" });
const ADA = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const BOB = "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0";
const ada = { network: "BEP20", index: 0, address: ADA, userId: "u1", userName: "Ada", amount: 125.5, transfers: 3, sweptAt: null, lastCreditedAt: "2026-03-02T10:00:00.123Z" };
const bob = { network: "BEP20", index: 1, address: BOB, userId: "u2", userName: "Bob", amount: 10, transfers: 1, sweptAt: "2026-03-01T09:00:00.000Z", lastCreditedAt: "2026-03-02T11:00:00.000Z" };

/** The signed-in admin, `list` for GET /api/admin/deposit-addresses/sweep, and `swept` for each POST. */
function serve(list: () => Response, swept = () => json({ msg: "Marked swept: 125.50 USDT cleared from the list.", cleared: 125.5 })) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(admin));
    if (request.method === "POST") return swept();
    return list();
  });
}
const posts = (seen: Request[]) => seen.filter((r) => r.method === "POST");
const row = (name: string) => screen.getByText(name).closest("tr")!;

test("the list shows each member address to sweep with its amount, transfers and dates, and says the funds are moved with the operator's own wallet", async () => {
  serve(() => json([ada, bob]));
  renderClient(<AdminSweepPage />, { me: admin });
  expect(await screen.findByRole("heading", { level: 1, name: "To Sweep" })).toBeTruthy();
  const note = screen.getByRole("note").textContent!;
  expect(note).toContain("read-only help");
  expect(note).toContain("move the funds with your own wallet");
  expect(note).toContain("Marking moves nothing");

  const first = within(row("Ada"));
  expect(first.getByText("125.50 $")).toBeTruthy();
  expect(first.getByText("3")).toBeTruthy();
  expect(first.getByText("Never")).toBeTruthy();
  expect(first.getByText("BEP20 (BNB Smart Chain)")).toBeTruthy();
  expect(first.getByTitle(ADA).textContent).toContain("0x9858Ef…EcaEda94"); // shortened, whole in its title
  expect(first.getByRole("button", { name: "Copy Ada's deposit address" })).toBeTruthy();
  const second = within(row("Bob"));
  expect(second.getByText("10.00 $")).toBeTruthy();
  expect(second.queryByText("Never")).toBeNull();
  expect(second.getAllByRole("time")).toHaveLength(2);
});

test("'Mark swept' asks first, naming the member, amount and address, then marks it through the credit shown and reloads the list", async () => {
  let rows = [ada, bob];
  const seen = serve(
    () => json(rows),
    () => {
      rows = [bob];
      return json({ msg: "Marked swept: 125.50 USDT cleared from the list.", cleared: 125.5 });
    },
  );
  renderClient(<AdminSweepPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: `Mark swept ${ADA}` }));
  const dialog = await screen.findByRole("dialog", { name: "Mark this address swept?" });
  expect(dialog.textContent).toContain(`Confirm that you moved the 125.50\u00a0$ credited at Ada's BEP20 (BNB Smart Chain) address ${ADA} with your own wallet.`);
  expect(dialog.textContent).toContain("Nothing moves on chain");
  fireEvent.click(within(dialog).getByRole("button", { name: "Yes, mark swept" }));
  expect(await screen.findByText("Marked swept: 125.50 USDT cleared from the list.")).toBeTruthy();
  const [post] = posts(seen);
  expect(new URL(post!.url).pathname).toBe("/api/admin/deposit-addresses/BEP20/0/swept");
  // Through the last credit the admin saw (plus the millisecond the wire drops), never "now".
  expect(await post!.json()).toEqual({ through: "2026-03-02T10:00:00.124Z" });
  expect(post!.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
  await waitFor(() => expect(screen.queryByText("Ada")).toBeNull());
  expect(screen.getByText("Bob")).toBeTruthy();
});

test("cancelling the confirmation sends nothing", async () => {
  const seen = serve(() => json([ada]));
  renderClient(<AdminSweepPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: `Mark swept ${ADA}` }));
  await screen.findByRole("dialog", { name: "Mark this address swept?" });
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("dialog", { name: "Mark this address swept?" })).toBeNull());
  expect(posts(seen)).toHaveLength(0);
});

test("a refusal shows the server's reason", async () => {
  serve(
    () => json([ada]),
    () => json({ msg: "That address was already marked swept through a later time.", code: "validation" }, 400),
  );
  renderClient(<AdminSweepPage />, { me: admin });
  fireEvent.click(await screen.findByRole("button", { name: `Mark swept ${ADA}` }));
  fireEvent.click(await screen.findByRole("button", { name: "Yes, mark swept" }));
  expect(await screen.findByText("That address was already marked swept through a later time.")).toBeTruthy();
});

test("nothing to sweep says so; a failed load offers to try again", async () => {
  let failing = true;
  serve(() => (failing ? new Response("", { status: 500 }) : json([])));
  renderClient(<AdminSweepPage />, { me: admin });
  expect(await screen.findByText("Failed to load the addresses to sweep.")).toBeTruthy();
  failing = false;
  fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByText("Nothing to sweep: no USDT was credited at members' addresses since they were last swept.")).toBeTruthy();
});
