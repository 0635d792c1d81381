import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { MEMBER } from "../../../shared/contract/member";
import type { Answer } from "../../../shared/contract/wire";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import PartnersPage from "./PartnersPage";

useDom();

type Partner = Answer<typeof MEMBER.partners.response>["partners"][number];
const me = makeMe();

const partner = (id: string, name: string, fields: Partial<Partner> = {}): Partner => ({
  id,
  name,
  joinedAt: new Date("2026-02-01T10:00:00.000Z"),
  deleted: false,
  partners: 0,
  directPartners: 0,
  levels: { "3p": 0, "6p": 0 },
  ...fields,
  hasPartners: fields.hasPartners ?? (fields.directPartners ?? 0) > 0,
});
/** GET /api/user/partners as the server sends it: built through the contract. */
const wirePage = (partners: Partner[], page = 1, totalPages = 1, hasMore = page < totalPages) =>
  z.encode(MEMBER.partners.response, { partners, page, totalPages, hasMore, directPartners: 2, totalPartners: 5 });

const grace = partner("p-grace", "Grace Hopper", { partners: 3, directPartners: 2, levels: { "3p": 4, "6p": 0 } });
const alan = partner("p-alan", "Alan Turing", { levels: { "3p": 1, "6p": 2 } });
const linus = partner("p-linus", "Linus", { partners: 1, directPartners: 1 });
const ken = partner("p-ken", "Ken");
const barbara = partner("p-barbara", "Barbara");

/** The caller's branch, Grace's (two pages) and Linus's. */
function serve() {
  return serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    const of = url.searchParams.get("of");
    const page = Number(url.searchParams.get("page"));
    if (of === null) return json(wirePage([grace, alan]));
    if (of === "p-grace") return json(page === 1 ? wirePage([linus], 1, 2) : wirePage([barbara], 2, 2));
    if (of === "p-linus") return json(wirePage([ken]));
    return json({ msg: "Partner not found.", code: "not_found" }, 404);
  });
}
const partnerCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/partners").map((r) => new URL(r.url).search);
const row = (name: string) => screen.getByText(name).closest("li")!;

test("each partner shows the highest active level per program and the team size", async () => {
  serve();
  renderClient(<PartnersPage />, { me });
  await screen.findByText("Alan Turing");
  expect(within(row("Grace Hopper")).getAllByTestId("partner-levels")[0]!.textContent).toBe("3P: Lvl 4 · 6P: —none");
  expect(within(row("Alan Turing")).getByTestId("partner-levels").textContent).toBe("3P: Lvl 1 · 6P: Lvl 2");
  expect(within(row("Grace Hopper")).getByText("Team: 3")).toBeTruthy();
  expect(within(row("Alan Turing")).getByText("Team: 0")).toBeTruthy();
  // The figures come from the same first page.
  expect(screen.getByText("Direct partners").nextElementSibling!.textContent).toBe("2");
  expect(screen.getByText("Total team").nextElementSibling!.textContent).toBe("5");
});

test("only partners with partners of their own get a disclosure button", async () => {
  serve();
  renderClient(<PartnersPage />, { me });
  await screen.findByText("Alan Turing");
  expect(screen.getByRole("button", { name: /Grace Hopper/ }).getAttribute("aria-expanded")).toBe("false");
  expect(screen.queryByRole("button", { name: /Alan Turing/ })).toBeNull();
});

test("opening a partner loads their branch with ?of=, once, and closing hides it", async () => {
  const seen = serve();
  renderClient(<PartnersPage />, { me });
  const toggle = await screen.findByRole("button", { name: /Grace Hopper/ });
  expect(partnerCalls(seen)).toEqual(["?page=1"]);
  fireEvent.click(toggle);
  expect(toggle.getAttribute("aria-expanded")).toBe("true");
  const branch = await screen.findByRole("list", { name: "Partners of Grace Hopper" });
  expect(toggle.getAttribute("aria-controls")).toBe(branch.id);
  expect(within(branch).getByText("Linus")).toBeTruthy();
  expect(partnerCalls(seen)).toEqual(["?page=1", "?page=1&of=p-grace"]);

  fireEvent.click(toggle);
  expect(toggle.getAttribute("aria-expanded")).toBe("false");
  expect(screen.queryByRole("list", { name: "Partners of Grace Hopper" })).toBeNull();
  fireEvent.click(toggle);
  expect(await screen.findByRole("list", { name: "Partners of Grace Hopper" })).toBeTruthy();
  expect(partnerCalls(seen)).toHaveLength(2);
});

test("a branch opens inside a branch, and 'Load more' reads the branch's next page and focuses what it brought", async () => {
  const seen = serve();
  renderClient(<PartnersPage />, { me });
  fireEvent.click(await screen.findByRole("button", { name: /Grace Hopper/ }));
  fireEvent.click(await screen.findByRole("button", { name: /Linus/ }));
  expect(await screen.findByRole("list", { name: "Partners of Linus" })).toBeTruthy();
  expect(screen.getByText("Ken")).toBeTruthy();
  expect(partnerCalls(seen)).toContain("?page=1&of=p-linus");

  fireEvent.click(screen.getByRole("button", { name: "Load more: Partners of Grace Hopper" }));
  const barbaraName = await screen.findByText("Barbara");
  // The next page starts after the last partner shown (Linus), whoever joined or left since.
  expect(partnerCalls(seen)).toContain("?page=2&of=p-grace&after=p-linus");
  await waitFor(() => expect(document.activeElement).toBe(barbaraName));
  expect(screen.queryByRole("button", { name: "Load more: Partners of Grace Hopper" })).toBeNull();
});

test("'Load more' follows the server's hasMore, not the page count: partners who left since the first page do not end the list early", async () => {
  serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    // Two partners left after the first page was read: the count now makes one page, but more follow.
    if (url.searchParams.get("after") === null) return json(wirePage([grace, alan], 1, 1, true));
    return json(wirePage([barbara], 2, 1, false));
  });
  renderClient(<PartnersPage />, { me });
  await screen.findByText("Alan Turing");
  fireEvent.click(screen.getByRole("button", { name: /^Load more/ }));
  expect(await screen.findByText("Barbara")).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole("button", { name: /^Load more/ })).toBeNull());
});

test("a partner who left the platform is listed as such, without levels, and their branch still opens, even when all under them left too", async () => {
  // Her one partner left too: no partner counts under her, but one is listed.
  const left = partner("p-left", "Margaret", { deleted: true, partners: 0, directPartners: 0, hasPartners: true, levels: { "3p": 3, "6p": 0 } });
  serveFetch((r) => {
    const url = new URL(r.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.searchParams.get("of") === "p-left") return json(wirePage([ken]));
    return json(wirePage([left, alan]));
  });
  renderClient(<PartnersPage />, { me });
  const toggle = await screen.findByRole("button", { name: /Margaret/ });
  expect(within(row("Margaret")).getByText("Left the platform")).toBeTruthy();
  expect(within(row("Margaret")).queryByTestId("partner-levels")).toBeNull();
  expect(within(row("Alan Turing")).queryByText("Left the platform")).toBeNull();
  fireEvent.click(toggle);
  expect(within(await screen.findByRole("list", { name: "Partners of Margaret" })).getByText("Ken")).toBeTruthy();
});

test("the disclosure button works from the keyboard: it is a real button that takes focus", async () => {
  serve();
  renderClient(<PartnersPage />, { me });
  const toggle = await screen.findByRole("button", { name: /Grace Hopper/ });
  expect(toggle.tagName).toBe("BUTTON");
  expect(toggle.getAttribute("type")).toBe("button");
  toggle.focus();
  expect(document.activeElement).toBe(toggle);
  expect(toggle.textContent).toContain("2 direct partners");
});

test("no partners: the invitation sentence", async () => {
  serveFetch((r) =>
    new URL(r.url).pathname === "/api/auth"
      ? json(wireMe(me))
      : json(z.encode(MEMBER.partners.response, { partners: [], page: 1, totalPages: 1, hasMore: false, directPartners: 0, totalPartners: 0 })),
  );
  renderClient(<PartnersPage />, { me });
  expect(await screen.findByText("No partners yet. Share your invitation link to build your team.")).toBeTruthy();
});
