import { afterAll, describe, expect, test } from "bun:test";
import { Window } from "happy-dom";
import { FREEZE_AT_CYCLES, MIN_DEPOSIT, MIN_WITHDRAWAL, WITHDRAWAL_FEE_PERCENT } from "../../shared/constants";
import { formatPercent, formatUsdt, withdrawalFee } from "../../shared/money";
import { PAGES } from "../../shared/pages";
import type { Db } from "../../db/client";
import { testDeps, withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { createApp } from "../app";
import { mountWeb } from "./index";
import type { Manifest } from "./manifest";

// The public pages read the database (prices, platform figures) and the matrix code (slot
// rules); these tests change the data through the API and read the pages as a browser with
// JavaScript off would: the HTML, parsed, nothing run.

const manifest: Manifest = {
  css: ["/build/styles-abc.css"],
  app: { entry: "/build/main-abc.js", preload: ["/build/chunk-1.js"] },
  landing: { entry: "/build/island-abc.js", preload: [] },
};

const webApp = (db: Db, log?: (message: string, error?: unknown) => void) =>
  createApp(testDeps(db, { log }), { web: (a) => mountWeb(a, { manifest }) });

const window = new Window();
afterAll(() => window.happyDOM.close());

/** The page as a document, from its HTML alone. */
const parse = (html: string) => new window.DOMParser().parseFromString(html, "text/html") as unknown as Document;
const text = (node: Element | null | undefined) => (node?.textContent ?? "").replace(/\s+/g, " ").trim();
/** A table's body rows as lists of cell texts (the row's own th first). */
const rowsOf = (doc: Document, selector: string) =>
  [...doc.querySelectorAll(`${selector} tbody tr`)].map((tr) => [...tr.children].map((cell) => text(cell)));

let h: Harness;
let app: ReturnType<typeof webApp>;
useMoneyHarness((made) => {
  h = made;
  app = webApp(h.db);
});

const page = async (path: string, headers: Record<string, string> = {}) => {
  const res = await app.request(path, { headers });
  return { res, html: await res.text() };
};

describe("GET /how-it-works", () => {
  test("answers complete HTML with the current prices of every level, as an admin just set them", async () => {
    const patched = await h.call("PATCH", "/api/programs/3p/levels/4", { token: h.adminToken, body: { cost: "33.33", unfreezeCost: "11.11" } });
    expect(patched.status).toBe(200);

    const { res, html } = await page(PAGES.howItWorks);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    const doc = parse(html);
    expect(text(doc.querySelector("h1"))).toBe("How it works");

    const prices3p = rowsOf(doc, "table[data-prices=3p]");
    expect(prices3p).toHaveLength(12);
    expect(prices3p[0]).toEqual(["Level 1", "5.00 $", "2.50 $"]);
    expect(prices3p[3]).toEqual(["Level 4", "33.33 $", "11.11 $"]);
    expect(prices3p[11]).toEqual(["Level 12", "10240.00 $", "5120.00 $"]);
    expect(rowsOf(doc, "table[data-prices=6p]")[3]).toEqual(["Level 4", "40.00 $", "20.00 $"]);

    await h.call("PATCH", "/api/programs/3p/levels/4", { token: h.adminToken, body: { cost: 40, unfreezeCost: 20 } });
    expect(rowsOf(parse((await page(PAGES.howItWorks)).html), "table[data-prices=3p]")[3]).toEqual(["Level 4", "40.00 $", "20.00 $"]);
  });

  test("the slot tables say what the purchase does: 3P slots 1-2 pay, 3 completes and passes up; 6P slot 1 passes up, 2-5 pay, 6 completes and passes up", async () => {
    const doc = parse((await page(PAGES.howItWorks)).html);
    const rules = (program: string) => [...doc.querySelectorAll(`table[data-slots=${program}] tbody tr`)].map((tr) => tr.getAttribute("data-rule"));
    expect(rules("3p")).toEqual(["paid", "paid", "complete"]);
    expect(rules("6p")).toEqual(["pass_up", "paid", "paid", "paid", "paid", "complete"]);

    const paid = "Paid to the owner";
    const up = "Passed up";
    expect(rowsOf(doc, "table[data-slots=3p]").map(([slot, money]) => [slot, money])).toEqual([
      ["Slot 1", paid],
      ["Slot 2", paid],
      ["Slot 3", up],
    ]);
    expect(rowsOf(doc, "table[data-slots=6p]").map(([slot, money]) => [slot, money])).toEqual([
      ["Slot 1", up],
      ["Slot 2", paid],
      ["Slot 3", paid],
      ["Slot 4", paid],
      ["Slot 5", paid],
      ["Slot 6", up],
    ]);
    expect(rowsOf(doc, "table[data-slots=6p]")[5]![2]).toContain("Completes the cycle");
    expect(text(doc.body)).toContain("In 3P, 2 of every 3 slots pay the owner.");
    expect(text(doc.body)).toContain("In 6P, 4 of every 6 slots pay the owner.");
  });

  test("the fee, the minimums and the freeze come from the product's constants", async () => {
    const body = text(parse((await page(PAGES.howItWorks)).html).body);
    expect(body).toContain(`a fee of ${formatPercent(WITHDRAWAL_FEE_PERCENT)} of the amount is kept`);
    const fee = withdrawalFee(2_000n);
    expect(body).toContain(`for a withdrawal of ${formatUsdt(2_000n)}, the fee is ${formatUsdt(fee)} and ${formatUsdt(2_000n - fee)} is sent`);
    expect(body).toContain(`at least ${formatUsdt(MIN_DEPOSIT)}`);
    expect(body).toContain(`Ask for at least ${formatUsdt(MIN_WITHDRAWAL)}`);
    expect(body).toContain(`After ${FREEZE_AT_CYCLES} cycles the level freezes.`);
    expect(body).toContain("approves it");
    expect(body).toContain("the payment goes to the platform");
    expect(body).toContain("Missed earnings");
  });

  test("is accessible without JavaScript: headings, captions, scoped headers, and only the landing island as script", async () => {
    const { html } = await page(PAGES.howItWorks);
    const doc = parse(html);
    expect(doc.querySelectorAll("h1")).toHaveLength(1);
    for (const table of doc.querySelectorAll("main table")) {
      expect(text(table.querySelector("caption")).length).toBeGreaterThan(0);
      expect(table.querySelectorAll("thead th[scope=col]").length).toBe(3);
      expect(table.querySelectorAll("tbody th[scope=row]").length).toBe(table.querySelectorAll("tbody tr").length);
    }
    expect(doc.querySelectorAll("main table")).toHaveLength(4);
    expect([...doc.querySelectorAll("script")].map((s) => s.getAttribute("src"))).toEqual(["/build/island-abc.js"]);
    expect(html.indexOf("<script")).toBeGreaterThan(html.indexOf("Cookie Policy"));
    const current = doc.querySelector('header nav a[aria-current="page"]');
    expect(current?.getAttribute("href")).toBe(PAGES.howItWorks);
  });

  test("is cached like the landing page (no-cache) and compressed when the client accepts gzip; any case of the path works", async () => {
    const { res } = await page(PAGES.howItWorks, { "Accept-Encoding": "gzip" });
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect((await page("/How-It-Works")).res.status).toBe(200);
    expect((await page("/how-it-works/")).res.status).toBe(200);
  });
});

describe("the landing page", () => {
  test("links to /how-it-works from the navigation and from its sections", async () => {
    const doc = parse((await page(PAGES.home)).html);
    expect(doc.querySelector(`header nav a[href="${PAGES.howItWorks}"]`)).not.toBeNull();
    expect(doc.querySelectorAll(`main a[href="${PAGES.howItWorks}"]`).length).toBeGreaterThanOrEqual(2);
  });

  test("shows the real member count, paid out and active levels after purchases, and no invented returns", async () => {
    await withHarness(async (fresh) => {
      // The cache is per database, so this fresh one is read after the purchases.
      const a = await fresh.signUp();
      const b = await fresh.signUp({ referralId: a.myReferralId });
      await fresh.signUp(); // a member who buys nothing
      await fresh.fund(a.token, 20);
      await fresh.fund(b.token, 20);
      expect((await fresh.call("POST", "/api/user/packages/purchase/3p/1", { token: a.token })).status).toBe(200); // to the platform
      expect((await fresh.call("POST", "/api/user/packages/purchase/3p/1", { token: b.token })).status).toBe(200); // a's slot 1: paid to a
      expect((await fresh.call("POST", "/api/user/packages/purchase/3p/2", { token: b.token })).status).toBe(200); // nobody above at level 2: platform

      const html = await (await webApp(fresh.db).request(PAGES.home)).text();
      const doc = parse(html);
      const figure = (key: string) => text(doc.querySelector(`[data-figure=${key}] dd`));
      expect(figure("members")).toBe("3");
      expect(figure("paid-out")).toBe(formatUsdt(500n));
      expect(figure("levels-active")).toBe("3");
      expect(text(doc.querySelector("[data-figure=paid-out] dt"))).toBe("Paid out to members");
      for (const invented of ["+12.4%", "+18.9%", "+7.2%", "1M+", "99.9%", "150+"]) expect(html).not.toContain(invented);
    });
  });

  test("both pages still render when the database cannot be read: the landing without figures or prices, /how-it-works without prices", async () => {
    const broken = new Proxy(h.db, {
      get(target, key, receiver) {
        if (key === "select" || key === "execute") {
          return () => {
            throw new Error("database down");
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const logged: string[] = [];
    const down = webApp(broken, (message) => logged.push(message));

    const landing = await down.request(PAGES.home);
    expect(landing.status).toBe(200);
    const home = parse(await landing.text());
    expect(home.querySelector("[data-figure]")).toBeNull();
    expect(text(home.querySelector("h1")).length).toBeGreaterThan(0);

    const how = await down.request(PAGES.howItWorks);
    expect(how.status).toBe(200);
    const doc = parse(await how.text());
    expect(doc.querySelector("table[data-prices]")).toBeNull();
    expect(text(doc.body)).toContain("The current prices cannot be shown right now.");
    expect(doc.querySelectorAll("table[data-slots]")).toHaveLength(2); // the rules need no database
    expect(logged.sort()).toEqual(["/: level prices unavailable", "/: platform figures unavailable", "/how-it-works: level prices unavailable"]);
  });
});
