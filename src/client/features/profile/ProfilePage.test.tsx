import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../../shared/contract/member";
import { makeMe, renderClient } from "../../../testing/renderClient";
import { PartnersCounter } from "./PartnersCounter";
import ProfilePage from "./ProfilePage";

useDom();

let realMatchMedia: typeof window.matchMedia | undefined;
afterEach(() => {
  if (realMatchMedia) window.matchMedia = realMatchMedia;
});

const count = () => screen.getByTestId("partners-count").textContent;
const earnings = z.encode(MEMBER.earnings.response, {
  days: [],
  totalEarned: 0n,
  totalMissed: 0n,
  lifetimeEarned: 123_450n,
  lifetimeMissed: 2_005n,
});
/** The referrer's details and the earnings, each at its own path. */
const serveProfile = (referrer: unknown = { name: "Root", myReferralId: "ROOT" }) =>
  serveFetch((r) => json(new URL(r.url).pathname === "/api/user/earnings" ? earnings : referrer));
const paths = (seen: Request[]) => seen.map((r) => new URL(r.url).pathname);
/** Real time passes inside waitFor(), where Testing Library expects React updates outside act(). */
const within = (ms: number, check: () => void) => waitFor(check, { timeout: ms, interval: 50 });

test("'Total Partners' counts up over about 2 seconds to the user's real team size, not 156", async () => {
  serveProfile();
  renderClient(<ProfilePage />, { me: makeMe({ totalPartners: 37 }) });
  expect(count()).toBe("0");
  await within(1000, () => expect(Number(count())).toBeGreaterThan(0));
  expect(Number(count())).toBeLessThan(37);
  const started = performance.now();
  await within(3000, () => expect(count()).toBe("37"));
  expect(performance.now() - started).toBeGreaterThan(800);
  expect(screen.getByText("37 partners")).toBeTruthy();
});

test("after the count a countdown runs, then 'Updated just now' and 'New Features Coming Soon!' show", async () => {
  renderClient(<PartnersCounter total={3} countdownSeconds={2} />);
  expect(screen.queryByText("Updated just now")).toBeNull();
  await within(3000, () => expect(screen.getByText(/Refreshing in/)).toBeTruthy());
  await within(3000, () => expect(screen.getByText("Updated just now")).toBeTruthy());
  expect(screen.getByText("New Features Coming Soon!")).toBeTruthy();
});

test("people who ask for less motion see the figure at once", async () => {
  realMatchMedia = window.matchMedia;
  window.matchMedia = ((query: string) => ({ matches: query.includes("reduce"), media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  renderClient(<PartnersCounter total={1234} />);
  expect(count()).toBe("1,234");
});

test("the profile shows the referrer from /api/user/details, the referral link and the active packages", async () => {
  const seen = serveProfile({ name: "Grace Hopper", myReferralId: "GRACE1" });
  const me = makeMe({ referredBy: "GRACE1", myReferralId: "ADA123", balance: 4250n });
  me.packages["3p"].levels[0] = { level: 1, status: "active", cycles: 0, boxes: [] };
  me.packages["6p"].levels[1] = { level: 2, status: "frozen", cycles: 2, boxes: [] };
  renderClient(<ProfilePage />, { me });
  expect(await screen.findByText("Grace Hopper")).toBeTruthy();
  expect(paths(seen)).toContain("/api/user/details/GRACE1");
  expect((screen.getByLabelText("Referral link") as HTMLInputElement).value).toBe("http://localhost:3000/register?ref=ADA123");
  expect((screen.getByLabelText("Referral ID") as HTMLInputElement).value).toBe("ADA123");
  expect(screen.getAllByText("42.50 $").length).toBeGreaterThan(0);
  expect(screen.getByText(/3P Level 1/)).toBeTruthy();
  expect(screen.queryByText(/6P Level 2/)).toBeNull();
});

test("a user without a referrer makes no details call", async () => {
  const seen = serveProfile();
  renderClient(<ProfilePage />, { me: makeMe({ referredBy: null }) });
  expect(screen.getByText("None: you are at the top of the tree.")).toBeTruthy();
  expect(screen.getByText("No active packages yet.", { exact: false })).toBeTruthy();
  await waitFor(() => expect(paths(seen)).toEqual(["/api/user/earnings"]));
});

test("the profile shows lifetime earned and missed, and links to the chart", async () => {
  const seen = serveProfile();
  renderClient(<ProfilePage />, { me: makeMe({ referredBy: null }) });
  const card = screen.getByRole("region", { name: "Earnings" });
  await waitFor(() => expect(card.textContent).toContain("1234.50\u00a0$"));
  expect(card.textContent).toContain("20.05\u00a0$");
  expect(screen.getByText("Earned, all time")).toBeTruthy();
  expect(screen.getByText("Missed, all time")).toBeTruthy();
  expect(screen.getByRole("link", { name: "See earned and missed, day by day" }).getAttribute("href")).toBe("/userDashboard/earnings");
  expect(new URL(seen[0]!.url).search).toBe("?days=30");
});

test("earnings that cannot be loaded say so without hiding the rest of the profile", async () => {
  serveFetch(() => json({ msg: "boom" }, 500));
  renderClient(<ProfilePage />, { me: makeMe({ referredBy: null }) });
  expect(await screen.findByText("Could not load your earnings.")).toBeTruthy();
  expect(screen.getByText("None: you are at the top of the tree.")).toBeTruthy();
});

test("the copy buttons copy the referral ID and confirm it", async () => {
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", { value: { writeText: async (t: string) => void copied.push(t) }, configurable: true });
  serveProfile();
  renderClient(<ProfilePage />, { me: makeMe({ referredBy: null, myReferralId: "ADA123" }) });
  fireEvent.click(screen.getByRole("button", { name: "Copy ID" }));
  expect(await screen.findByText("Copied!")).toBeTruthy();
  expect(copied).toEqual(["ADA123"]);
});
