import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import AdminAuditPage from "./AdminAuditPage";
import type { AuditEntry } from "./api/getAudit";

useDom();

const admin = makeMe({ role: "admin" });

function entry(id: string, action: AuditEntry["action"], target: [string, string], before: AuditEntry["before"], after: AuditEntry["after"]) {
  return {
    id,
    createdAt: "2026-03-01T10:00:00.000Z",
    action,
    targetType: target[0],
    targetId: target[1],
    before,
    after,
    adminName: "Root Admin",
    adminEmail: "admin@example.com",
    actor: "admin",
  };
}

const firstPage = [
  entry("5", "level_price", ["level", "3p/2"], { cost: "10.00", unfreezeCost: "5.00" }, { cost: "12.50", unfreezeCost: "5.00" }),
  entry("4", "withdrawal_decision", ["withdrawal", "w1"], { status: "pending", userId: "u7", amount: "10.00" }, { status: "accepted", fee: "0.80" }),
  entry("3", "admin_gift", ["user", "u7"], null, { amount: "3.00" }),
];
const secondPage = [entry("1", "user_delete", ["user", "u9"], { name: "Grace", email: "grace@example.com", deleted: false }, { deleted: true })];

/** The signed-in admin, then `audit` for GET /api/admin/audit. */
function serve(audit: (url: URL) => Response) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    return url.pathname === "/api/auth" ? json(wireMe(admin)) : audit(url);
  });
}

const row = (text: string) => screen.getByText(text).closest("tr")!;

test("the audit trail shows each admin action in words with its before and after, and pages on request", async () => {
  const seen = serve((url) =>
    json(url.searchParams.get("page") === "2" ? { entries: secondPage, page: 2, totalPages: 2 } : { entries: firstPage, page: 1, totalPages: 2 }),
  );
  renderClient(<AdminAuditPage />, { me: admin });

  expect(await screen.findByText("Level price changed")).toBeTruthy();
  // In the server's order, newest first.
  const rows = [...document.querySelectorAll("tbody tr")].map((tr) => tr.textContent ?? "");
  const order = ["Level price changed", "Withdrawal decided", "Gift from system funds"].map((a) => rows.findIndex((r) => r.includes(a)));
  expect(order).toEqual([0, 1, 2]);
  const price = within(row("Level price changed"));
  expect(price.getByText("3P · Level 2")).toBeTruthy();
  expect(price.getByText("cost 10.00 $ → 12.50 $")).toBeTruthy();
  expect(price.getByText("unfreeze cost 5.00 $")).toBeTruthy(); // unchanged: context, not a change

  const decision = within(row("Withdrawal decided"));
  expect(decision.getByText("status pending → accepted")).toBeTruthy();
  expect(decision.getByText("fee 0.80 $")).toBeTruthy();
  expect(decision.getByText("user u7 · amount 10.00 $")).toBeTruthy();
  expect(decision.getByText("w1")).toBeTruthy();

  const gift = within(row("Gift from system funds"));
  expect(gift.getByText("amount 3.00 $")).toBeTruthy();
  expect(gift.getByText("Root Admin")).toBeTruthy();
  expect(gift.getByText("admin@example.com")).toBeTruthy();

  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("User deleted")).toBeTruthy();
  expect(screen.getByText("deleted no → yes")).toBeTruthy();
  expect(screen.getByText("Page 2 of 2")).toBeTruthy();
  expect(seen.map((r) => new URL(r.url)).filter((u) => u.pathname === "/api/admin/audit").map((u) => u.search)).toEqual(["?page=1", "?page=2"]);
});

test("an empty audit trail says 'No admin actions recorded yet.'", async () => {
  serve(() => json({ entries: [], page: 1, totalPages: 1 }));
  renderClient(<AdminAuditPage />, { me: admin });
  expect(await screen.findByText("No admin actions recorded yet.")).toBeTruthy();
  expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
});

test("a failed load says 'Failed to load the audit trail.' and Try again reloads it", async () => {
  let failing = true;
  serve(() => (failing ? new Response("", { status: 500 }) : json({ entries: firstPage, page: 1, totalPages: 1 })));
  renderClient(<AdminAuditPage />, { me: admin });
  expect(await screen.findByText("Failed to load the audit trail.")).toBeTruthy();
  failing = false;
  fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByText("Level price changed")).toBeTruthy();
});
