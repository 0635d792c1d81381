import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../../shared/contract/member";
import { renderApp } from "../../../testing/renderApp";
import { makeMe, wireMe } from "../../../testing/renderClient";

useDom();

const me = makeMe();
const statement = z.encode(MEMBER.transactions.response, {
  transactions: [
    {
      id: "t1",
      createdAt: new Date("2026-03-02T10:00:00.000Z"),
      kind: "fee",
      amount: -400n,
      counterparty: null,
      balanceAfter: 4_600n,
      program: null,
      level: null,
      requestId: "w1",
    },
  ],
  page: 1,
  totalPages: 3,
});
const noRequests = z.encode(MEMBER.requests.response, { items: [], page: 1, totalPages: 1 });
const CSV = "date,kind,amount,balance after\n2026-03-02,fee,-4.00,46.00\n";

function serve(csv: () => Response = () => new Response(CSV, { headers: { "content-type": "text/csv" } })) {
  return serveFetch((r) => {
    const path = new URL(r.url).pathname;
    if (path === "/api/auth") return json(wireMe(me));
    if (path === "/api/user/transactions") return json(statement);
    if (path === "/api/user/transactions.csv") return csv();
    if (path === "/api/user/requests") return json(noRequests);
    return json({});
  });
}
/** The browser's time zone as the statement's query carries it with any day (the days are its days). */
const TZ = `tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;
const statementCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/transactions").map((r) => new URL(r.url).search);

// Put back what a download test replaced (the DOM exists only once the file's tests run).
let restore = () => {};
beforeEach(() => {
  const [create, revoke, click] = [URL.createObjectURL, URL.revokeObjectURL, HTMLAnchorElement.prototype.click];
  restore = () => {
    URL.createObjectURL = create;
    URL.revokeObjectURL = revoke;
    HTMLAnchorElement.prototype.click = click;
  };
});
afterEach(() => restore());

test("filters come from the URL, go to the statement's query and back to the URL", async () => {
  const seen = serve();
  const app = renderApp("/userDashboard/transactions?kind=fee&from=2026-03-01", { token: "t1" });
  expect(await screen.findByText("Withdrawal fee", { selector: "td *" })).toBeTruthy();
  expect((screen.getByLabelText("Kind") as HTMLSelectElement).value).toBe("fee");
  expect((screen.getByLabelText("From") as HTMLInputElement).value).toBe("2026-03-01");
  expect(statementCalls(seen)).toEqual([`?kind=fee&from=2026-03-01&${TZ}&page=1`]);

  fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-03-31" } });
  await waitFor(() => expect(app.location()).toBe("/userDashboard/transactions?kind=fee&from=2026-03-01&to=2026-03-31"));
  await waitFor(() => expect(statementCalls(seen).at(-1)).toBe(`?kind=fee&from=2026-03-01&to=2026-03-31&${TZ}&page=1`));

  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/transactions?kind=fee&from=2026-03-01&to=2026-03-31&page=2"));
  await waitFor(() => expect(statementCalls(seen).at(-1)).toBe(`?kind=fee&from=2026-03-01&to=2026-03-31&${TZ}&page=2`));

  // A new filter starts again at page 1.
  fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "" } });
  await waitFor(() => expect(app.location()).toBe("/userDashboard/transactions?from=2026-03-01&to=2026-03-31"));
  await waitFor(() => expect(statementCalls(seen).at(-1)).toBe(`?from=2026-03-01&to=2026-03-31&${TZ}&page=1`));

  fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
  await waitFor(() => expect(app.location()).toBe("/userDashboard/transactions"));
  await waitFor(() => expect(statementCalls(seen).at(-1)).toBe("?page=1"));
});

test("the kind select offers every statement kind in words", async () => {
  serve();
  renderApp("/userDashboard/transactions", { token: "t1" });
  const select = (await screen.findByLabelText("Kind")) as HTMLSelectElement;
  expect([...select.options].map((o) => o.textContent)).toEqual([
    "All kinds",
    "Deposit",
    "Withdrawal",
    "Withdrawal fee",
    "Gift received",
    "Gift sent",
    "Level purchase",
    "Level unfreeze",
    "Earning",
    "Pass-up earning",
  ]);
});

test("a From day after the To day says so instead of asking the server", async () => {
  const seen = serve();
  renderApp("/userDashboard/transactions?from=2026-03-10&to=2026-03-01", { token: "t1" });
  expect(await screen.findByText("The From day is after the To day: no transaction can match.")).toBeTruthy();
  expect(statementCalls(seen)).toEqual([]);
});

test("Download CSV fetches the statement with the same filters and the token, and saves statement.csv", async () => {
  const seen = serve();
  const saved: { href: string; download: string; text: string }[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:statement-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  const revoked: string[] = [];
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ href: this.getAttribute("href")!, download: this.download, text: "" });
  };
  renderApp("/userDashboard/transactions?kind=fee&to=2026-03-31", { token: "t1" });
  fireEvent.click(await screen.findByRole("button", { name: "Download CSV" }));
  await waitFor(() => expect(saved).toHaveLength(1));
  const csv = seen.find((r) => new URL(r.url).pathname === "/api/user/transactions.csv")!;
  expect(new URL(csv.url).search).toBe(`?kind=fee&to=2026-03-31&${TZ}`);
  expect(csv.headers.get("x-auth-token")).toBe("t1");
  expect(saved[0]!.download).toBe("statement.csv");
  expect(await blobs.get(saved[0]!.href)!.text()).toBe(CSV);
  await waitFor(() => expect(revoked).toEqual([saved[0]!.href]));
  expect(document.querySelector("a[download]")).toBeNull();
});

test("a refused CSV download says why in a toast and saves nothing", async () => {
  serve(() => json({ msg: "To must be a date (YYYY-MM-DD).", code: "invalid_input" }, 400));
  let clicked = 0;
  HTMLAnchorElement.prototype.click = () => void clicked++;
  renderApp("/userDashboard/transactions", { token: "t1" });
  fireEvent.click(await screen.findByRole("button", { name: "Download CSV" }));
  expect(await screen.findByText("To must be a date (YYYY-MM-DD).")).toBeTruthy();
  expect(clicked).toBe(0);
  expect((screen.getByRole("button", { name: "Download CSV" }) as HTMLButtonElement).disabled).toBe(false);
});

test("a CSV download with no answer at all says it could not reach the server", async () => {
  serve(() => {
    throw new TypeError("Failed to fetch");
  });
  renderApp("/userDashboard/transactions", { token: "t1" });
  fireEvent.click(await screen.findByRole("button", { name: "Download CSV" }));
  expect(await screen.findByText("Could not reach the server.")).toBeTruthy();
});
