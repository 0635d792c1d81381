import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { TOTAL_COUNT_HEADER } from "../../../shared/constants";
import { ADMIN } from "../../../shared/contract/admin";
import { renderApp } from "../../../testing/renderApp";
import { makeMe, wireMe } from "../../../testing/renderClient";

useDom();

const admin = makeMe({ id: "a1", name: "Root Admin", role: "admin" });
type Record_ = z.output<typeof ADMIN.memberRecord.response>;
type Level = Record_["programs"]["3p"][number];
const at = (day: number) => new Date(Date.UTC(2026, 2, day, 10));

const locked = (level: number, fields: Partial<Level> = {}): Level => ({ level, status: "locked", cycles: 0, filled: 0, cycle: 1, cyclesCompleted: 0, earned: 0n, missed: 0n, ...fields });
const levels = (fields: Record<number, Partial<Level>>) => Array.from({ length: 12 }, (_, i) => locked(i + 1, fields[i + 1]));

const ann: Record_ = {
  id: "u1",
  name: "Ann Member",
  email: "ann@example.com",
  myReferralId: "ANN12345",
  referrer: { id: "u0", name: "Sam Sponsor", myReferralId: "SAM12345", deleted: false },
  createdAt: at(1),
  role: "user",
  status: "active",
  twoFactor: true,
  emailVerified: false,
  balance: 11_300n,
  held: 1_000n,
  available: 10_300n,
  earned: 2_000n,
  missed: 1_500n,
  totalPartners: 7,
  directPartners: 6,
  programs: {
    "3p": levels({ 1: { status: "frozen", cycles: 2, cycle: 2, cyclesCompleted: 2, earned: 2_000n, missed: 500n }, 2: { missed: 1_000n } }),
    "6p": levels({ 1: { status: "active", cycle: 1, filled: 1 } }),
  },
};

const transaction = (n: number) => ({
  id: String(n),
  createdAt: at(n),
  kind: "earning" as const,
  amount: 500n,
  counterparty: { name: `Buyer ${n}` },
  fromPlatform: false,
  balanceAfter: 500n * BigInt(n),
  program: "3p" as const,
  level: 1,
  requestId: null,
});

const partner = (id: string, name: string, deleted = false) => ({
  id,
  name,
  joinedAt: at(2),
  deleted,
  partners: 1,
  directPartners: 1,
  hasPartners: true,
  levels: { "3p": 1, "6p": 0 },
});

const matrixOf = (cycle: number) => ({
  program: "3p" as const,
  level: 1,
  status: "frozen" as const,
  slotCount: 3,
  cycles: 2,
  cycle,
  cyclesCompleted: 2,
  earned: 2_000n,
  missed: 500n,
  unfreezeCost: 250n,
  slots: [1, 2, 3].map((slot) => ({
    slot,
    filled: true,
    user: { id: `p${cycle}${slot}`, name: `Cycle ${cycle} Partner ${slot}` },
    filledAt: at(slot),
    outcome: slot === 3 ? ("passed_up" as const) : ("paid" as const),
    amount: 500n,
    to: slot === 3 ? { name: "Sam Sponsor" } : null,
  })),
});

const withTotal = (body: unknown, total: number) => {
  const res = json(body);
  res.headers.set(TOTAL_COUNT_HEADER, String(total));
  return res;
};

/** The server: the admin signed in, Ann's record and lists; every call seen. */
function serve(overrides: (url: URL) => Response | undefined = () => undefined) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    const answer = overrides(url);
    if (answer) return answer;
    const path = url.pathname;
    if (path === "/api/auth") return json(wireMe(admin));
    if (path === "/api/admin/users") {
      return json(z.encode(ADMIN.users.response, { users: [{ id: "u1", name: "Ann Member", email: "ann@example.com", role: "user", balance: 11_300n, createdAt: at(1) }], totalPages: 1 }));
    }
    if (path === "/api/admin/users/u1") return json(z.encode(ADMIN.memberRecord.response, ann));
    if (path === "/api/admin/users/u1/transactions") {
      const page = Number(url.searchParams.get("page"));
      const rows = page === 2 ? [transaction(21)] : Array.from({ length: 20 }, (_, i) => transaction(i + 1));
      return withTotal(z.encode(ADMIN.memberTransactions.response, rows), 21);
    }
    if (path === "/api/admin/users/u1/partners") {
      return withTotal(z.encode(ADMIN.memberPartners.response, [partner("p1", "Live Partner"), partner("p2", "Gone Partner", true)]), 2);
    }
    if (path === "/api/admin/users/u1/matrix/3p/1") return json(z.encode(ADMIN.memberMatrix.response, matrixOf(Number(url.searchParams.get("cycle") ?? 2))));
    return json({});
  });
}
const calls = (seen: Request[], path: string) => seen.filter((r) => new URL(r.url).pathname === path).map((r) => new URL(r.url).search);

test("All Users links each member to their record, which opens on the overview: profile, money, team and levels", async () => {
  serve();
  const app = renderApp("/userDashboard/all-users", { token: "t1" });
  fireEvent.click(await screen.findByRole("link", { name: "Ann Member" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1"));
  expect(await screen.findByRole("heading", { level: 1, name: "Ann Member" })).toBeTruthy();
  expect(screen.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected")).toBe("true");

  const profile = screen.getByRole("region", { name: "Profile" });
  expect(within(profile).getByRole("link", { name: "Sam Sponsor" }).getAttribute("href")).toBe("/userDashboard/all-users/u0");
  expect(within(profile).getByText("(SAM12345)")).toBeTruthy();
  expect(within(profile).getByText("On")).toBeTruthy();
  expect(within(profile).getByText("Not confirmed")).toBeTruthy();
  const balance = screen.getByRole("region", { name: "Balance" });
  expect(within(balance).getByText("113.00 $")).toBeTruthy();
  expect(within(balance).getByText("Held by pending withdrawals").nextElementSibling?.textContent).toBe("10.00 $");
  expect(within(balance).getByText("Available").nextElementSibling?.textContent).toBe("103.00 $");
  const team = screen.getByRole("region", { name: "Team" });
  expect(within(team).getByText("Whole team").nextElementSibling?.textContent).toBe("7");

  // The levels bought, and the one never bought where payments passed the member by.
  const threeP = screen.getByRole("table", { name: "3P levels of Ann Member" });
  const [first, second] = within(threeP).getAllByRole("row").slice(1) as [HTMLElement, HTMLElement];
  expect(within(threeP).getAllByRole("row")).toHaveLength(3);
  expect(within(first).getByText("Frozen")).toBeTruthy();
  expect(within(first).getByText("Frozen after cycle 2")).toBeTruthy();
  expect(within(first).getByText("20.00 $")).toBeTruthy();
  expect(within(second).getByText("Not bought")).toBeTruthy();
  expect(within(second).getByText("10.00 $")).toBeTruthy();
  const sixP = screen.getByRole("table", { name: "6P levels of Ann Member" });
  expect(within(sixP).getByText("Cycle 1, 1 of 6 slots filled")).toBeTruthy();
  expect(within(first).getByRole("link", { name: "Open the matrix of 3P Level 1" }).getAttribute("href")).toBe("/userDashboard/all-users/u1?tab=matrix&program=3p&level=1");
});

test("a tab is kept in the URL; a list asks for page 1 of 20, says how many there are in all, and pages on", async () => {
  const seen = serve();
  const app = renderApp("/userDashboard/all-users/u1", { token: "t1" });
  fireEvent.click(await screen.findByRole("tab", { name: "Transactions" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1?tab=transactions"));
  expect(await screen.findByText("21 transactions")).toBeTruthy();
  const table = screen.getByRole("table", { name: "Transactions of Ann Member, newest first" });
  expect(within(table).getAllByRole("row")).toHaveLength(21);
  expect(screen.getByText("Page 1 of 2")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  expect(await screen.findByText("Buyer 21")).toBeTruthy();
  expect(app.location()).toBe("/userDashboard/all-users/u1?tab=transactions&page=2");
  expect(calls(seen, "/api/admin/users/u1/transactions")).toEqual(["?page=1&limit=20", "?page=2&limit=20"]);

  // Another tab starts on its own first page.
  fireEvent.click(screen.getByRole("tab", { name: "Partners" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1?tab=partners"));
  expect(await screen.findByText("2 partners, those who left included")).toBeTruthy();
  expect(calls(seen, "/api/admin/users/u1/partners")).toEqual(["?page=1&limit=20"]);
});

test("the tabs answer the arrow keys, Home and End, as ARIA tabs do", async () => {
  serve();
  const app = renderApp("/userDashboard/all-users/u1?tab=partners", { token: "t1" });
  const partners = await screen.findByRole("tab", { name: "Partners" });
  expect(partners.getAttribute("aria-selected")).toBe("true");
  expect(screen.getByRole("tabpanel").getAttribute("aria-labelledby")).toBe(partners.id);
  fireEvent.keyDown(partners, { key: "ArrowRight" });
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1?tab=audit"));
  expect(document.activeElement).toBe(screen.getByRole("tab", { name: "Audit" }));
  fireEvent.keyDown(document.activeElement!, { key: "End" });
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1?tab=matrix"));
  fireEvent.keyDown(document.activeElement!, { key: "ArrowRight" });
  await waitFor(() => expect(app.location()).toBe("/userDashboard/all-users/u1"));
  expect(screen.getByRole("tab", { name: "Overview" }).getAttribute("tabindex")).toBe("0");
});

test("partners: one still a member opens their record; one who left is marked deleted, with no link", async () => {
  serve();
  renderApp("/userDashboard/all-users/u1?tab=partners", { token: "t1" });
  const table = await screen.findByRole("table", { name: "Direct partners of Ann Member, newest first" });
  expect(within(table).getByRole("link", { name: "Live Partner" }).getAttribute("href")).toBe("/userDashboard/all-users/p1");
  expect(within(table).queryByRole("link", { name: "Gone Partner" })).toBeNull();
  expect(within(table).getByText("· deleted")).toBeTruthy();
});

test("the matrix: the level from the URL, its slots as the member sees them, other cycles kept in the URL", async () => {
  const seen = serve();
  const app = renderApp("/userDashboard/all-users/u1?tab=matrix&program=3p&level=1", { token: "t1" });
  expect(await screen.findByText("Cycle 2 Partner 1")).toBeTruthy();
  expect(screen.getByText("Frozen after 2 cycles")).toBeTruthy();
  expect(screen.getAllByText("Paid to Ann Member")).toHaveLength(2);
  expect(screen.getByText("Passed up to Sam Sponsor")).toBeTruthy();
  expect(screen.getByText("Showing cycle 2 of 2 (completed, froze the level)")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: /Previous cycle/ }));
  expect(await screen.findByText("Cycle 1 Partner 1")).toBeTruthy();
  expect(app.location()).toBe("/userDashboard/all-users/u1?tab=matrix&program=3p&level=1&cycle=1");
  expect(calls(seen, "/api/admin/users/u1/matrix/3p/1")).toEqual(["", "?cycle=1"]);
  expect((screen.getByLabelText("Level") as HTMLSelectElement).value).toBe("1");
});

test("an unknown or deleted member says so, with no tabs", async () => {
  serve((url) => (url.pathname === "/api/admin/users/u1" ? json({ msg: "User not found.", code: "user_not_found" }, 404) : undefined));
  renderApp("/userDashboard/all-users/u1", { token: "t1" });
  expect(await screen.findByRole("heading", { name: "Member not found" })).toBeTruthy();
  expect(screen.queryByRole("tablist")).toBeNull();
});

test("a record that fails to load offers to try again, and then shows", async () => {
  let fail = true;
  serve((url) => (url.pathname === "/api/admin/users/u1" && fail ? json({ msg: "boom", code: "server_error" }, 500) : undefined));
  renderApp("/userDashboard/all-users/u1", { token: "t1" });
  expect(await screen.findByText("Failed to load the member's record.")).toBeTruthy();
  fail = false;
  fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByRole("heading", { level: 1, name: "Ann Member" })).toBeTruthy();
});
