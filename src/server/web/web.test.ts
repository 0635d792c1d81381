import { describe, expect, test } from "bun:test";
import { NEWSLETTER_PER_HOUR } from "../../shared/constants";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brand, footer, hero, stats } from "../../ui/content";
import type { Database } from "../../db/client";
import { testDeps } from "../../testing/harness";
import { useDatabase } from "../../testing/useHarness";
import { createApp } from "../app";
import { mountWeb } from "./index";
import type { Manifest } from "./manifest";

const manifest: Manifest = {
  css: ["/build/styles-abc.css"],
  app: { entry: "/build/main-abc.js", preload: ["/build/chunk-1.js"] },
  landing: { entry: "/build/island-abc.js", preload: [] },
};

let database: Database;
let app: ReturnType<typeof createApp>;
const publicDir = mkdtempSync(join(tmpdir(), "web-public-"));

useDatabase((made) => {
  database = made;
  mkdirSync(join(publicDir, "build"));
  writeFileSync(join(publicDir, "build", "main-abc.js"), "console.log('app')");
  writeFileSync(join(publicDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  app = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest, publicDir }) });
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe("the landing page", () => {
  test("GET / is complete HTML with the hero and footer texts, and no script before the content", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    for (const text of [hero.title, stats.members, stats.paidOut, stats.levelsActive, "Why choose us", "Quick Links", "Our Services", "Get in Touch", "Subscribe to Newsletter", "Privacy Policy", "Terms of Service", "Cookie Policy"]) {
      expect(html).toContain(text);
    }
    for (const service of footer.services) expect(html).toContain(service);
    expect(html).toContain(`© 2017 ${brand.name}`);
    const firstScript = html.indexOf("<script");
    expect(firstScript).toBeGreaterThan(html.indexOf("Cookie Policy"));
    expect(html).toContain('<script type="module" src="/build/island-abc.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/build/styles-abc.css"/>');
  });

  test("the program cards show the level prices from program_levels", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain("3P Matrix");
    expect(html).toContain("6P Matrix");
    expect(html).toContain("5.00 $"); // level 1 default price
    expect(html).toContain("10240.00 $"); // level 12
  });

  test("the newsletter form works without JavaScript: POST /newsletter subscribes and redirects back", async () => {
    const body = new URLSearchParams({ email: "reader@example.com" });
    const first = await app.request("/newsletter", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/?newsletter=subscribed#newsletter");
    const again = await app.request("/newsletter", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(again.headers.get("location")).toBe("/?newsletter=already#newsletter");
    const html = await (await get("/?newsletter=subscribed")).text();
    expect(html).toContain("Thank you for subscribing!");
    const bad = await app.request("/newsletter", { method: "POST", body: new URLSearchParams({ email: "nope" }) });
    expect(bad.headers.get("location")).toBe("/?newsletter=invalid#newsletter");
    const huge = await app.request("/newsletter", { method: "POST", body: new URLSearchParams({ email: `${"a".repeat(5000)}@example.com` }) });
    expect(huge.status).toBe(303);
    expect(huge.headers.get("location")).toBe("/?newsletter=invalid#newsletter");
    // Past NEWSLETTER_PER_HOUR from one address (here the tests' one, "unknown"), the form says so.
    let location: string | null = null;
    for (let i = 0; i < NEWSLETTER_PER_HOUR && location !== "/?newsletter=throttled#newsletter"; i++) {
      const res = await app.request("/newsletter", { method: "POST", body: new URLSearchParams({ email: `reader-${i}@example.com` }) });
      location = res.headers.get("location");
    }
    expect(location).toBe("/?newsletter=throttled#newsletter");
    expect(await (await get("/?newsletter=throttled")).text()).toContain("Too many subscriptions from your address. Please try again later.");
  });
});

describe("the app shells", () => {
  test.each(["/login", "/logIn", "/LOGIN", "/register", "/Register", "/userDashboard", "/userDashboard/package", "/userdashboard/admin-3p/"])(
    "GET %s answers the dashboard shell with CSS in the head and the deferred bundle",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="root">');
      expect(html).toContain('<script type="module" src="/build/main-abc.js"></script>');
      expect(html).toContain('<link rel="modulepreload" href="/build/chunk-1.js"/>');
      expect(html.indexOf("/build/styles-abc.css")).toBeLessThan(html.indexOf("</head>"));
      expect(res.headers.get("cache-control")).toBe("no-cache");
    },
  );

  test("the shells paint a frame before JavaScript: the loader for the dashboard, the card outline for login", async () => {
    expect(await (await get("/userDashboard/deposit")).text()).toContain("Loading, please wait...");
    const login = await (await get("/login")).text();
    expect(login).toContain('aria-busy="true"');
    expect(login).not.toContain("Quick Links"); // no site chrome on login/register
  });
});

describe("headers, assets and unknown pages", () => {
  test("the CSP allows scripts from our origin only, so inline scripts cannot run", async () => {
    for (const path of ["/", "/login", "/userDashboard"]) {
      const csp = (await get(path)).headers.get("content-security-policy") ?? "";
      const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"));
      expect(scriptSrc).toBe("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
    }
  });

  test("hashed build files are cached for a year as immutable; other public files for an hour", async () => {
    const asset = await get("/build/main-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await asset.text()).toBe("console.log('app')");
    expect((await get("/favicon.svg")).headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await get("/build/../../etc/passwd")).status).toBe(404);
  });

  test("an unknown page answers a 404 HTML page with the site chrome; unknown API paths stay JSON", async () => {
    const res = await get("/no-such-page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("Quick Links");
    const api = await get("/api/no-such-thing");
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ msg: "Not found.", code: "not_found" });
  });

  test("without a build manifest the pages still render, just without assets", async () => {
    const bare = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest: null, publicDir }) });
    const html = await (await bare.request("/")).text();
    expect(html).toContain(hero.title);
    expect(html).not.toContain("<script");
  });
});
