/**
 * The landing-side pages drawn with the stylesheet they carry (compacted: scripts/css.ts) and
 * with the same rules as UnoCSS wrote them, side by side in Chromium: the same pixels, at a
 * phone's width and a desktop's. A rule compactCss() rewrote wrongly, or one the page's
 * sources did not yield, shows here as a difference.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PAGE_CSS, pageCss, type PageName } from "../scripts/css";
import { freshDatabase } from "../src/testing/db";
import { testDeps } from "../src/testing/harness";
import type { Database } from "../src/db/client";
import { createApp } from "../src/server/app";
import { mountWeb } from "../src/server/web/index";
import type { Manifest } from "../src/server/web/manifest";
import { announceSkip, DESKTOP, launchBrowser, MOBILE, skipReason } from "./browser";

const skip = skipReason();
announceSkip("e2e/landingLook.test.ts", skip);

/**
 * Compacting writes a colour mixed in sRGB where Chromium drew wind4's Oklab restatement of it:
 * the same colour, off by at most this much in a channel where text is anti-aliased over it.
 */
const TOLERANCE = 3;

const PAGES: Record<PageName, string> = { landing: "/", howItWorks: "/how-it-works", notFound: "/no-such-page" };

describe.skipIf(skip !== null)("the landing-side pages look the same with their compacted stylesheet", () => {
  let browser: Browser;
  let database: Database;
  let app: ReturnType<typeof createApp>;
  const full = {} as Record<PageName, string>;

  beforeAll(async () => {
    const publicDir = mkdtempSync(join(tmpdir(), "landing-look-"));
    mkdirSync(join(publicDir, "build"));
    const pageCssUrls = {} as Record<PageName, string>;
    for (const page of Object.keys(PAGE_CSS) as PageName[]) {
      pageCssUrls[page] = `/build/page-${page}.css`;
      writeFileSync(join(publicDir, pageCssUrls[page]), (await pageCss(page)).css);
      full[page] = (await pageCss(page, { compact: false })).css;
    }
    const manifest: Manifest = {
      css: [],
      pageCss: pageCssUrls,
      app: { entry: "/build/main.js", preload: [] },
      landing: { entry: "/build/island.js", preload: [] },
    };
    database = await freshDatabase();
    app = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest, publicDir }) });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  /** The page drawn whole, script off, motion reduced: its pixels as a PNG. */
  async function draw(html: string, width: number): Promise<Buffer> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false, reducedMotion: "reduce" });
    try {
      const page = await context.newPage();
      await page.route("**/*", (route) => (route.request().resourceType() === "document" ? route.fulfill({ body: html, contentType: "text/html" }) : route.fulfill({ status: 404 })));
      await page.goto("http://landing.test/", { waitUntil: "load" });
      // The viewport made as tall as the page, so every part is laid out and drawn in one go.
      await page.setViewportSize({ width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
      await page.waitForTimeout(200);
      return await page.screenshot();
    } finally {
      await context.close();
    }
  }

  /** How many pixels differ by more than TOLERANCE in a channel (-1: the sizes differ), and the largest difference. */
  async function compare(a: Buffer, b: Buffer): Promise<{ size: string; over: number; largest: number }> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      return await page.evaluate(
        async ([x, y, tolerance]) => {
          const load = (data: string) =>
            new Promise<HTMLImageElement>((resolve) => {
              const image = new Image();
              image.onload = () => resolve(image);
              image.src = `data:image/png;base64,${data}`;
            });
          const [one, two] = [await load(x as string), await load(y as string)];
          const pixels = (image: HTMLImageElement) => {
            const canvas = document.createElement("canvas");
            [canvas.width, canvas.height] = [image.width, image.height];
            const context2d = canvas.getContext("2d")!;
            context2d.drawImage(image, 0, 0);
            return context2d.getImageData(0, 0, image.width, image.height).data;
          };
          const size = `${one.width}x${one.height} / ${two.width}x${two.height}`;
          if (one.width !== two.width || one.height !== two.height) return { size, over: -1, largest: -1 };
          const [p, q] = [pixels(one), pixels(two)];
          let over = 0;
          let largest = 0;
          for (let i = 0; i < p.length; i += 4) {
            const d = Math.max(Math.abs(p[i]! - q[i]!), Math.abs(p[i + 1]! - q[i + 1]!), Math.abs(p[i + 2]! - q[i + 2]!));
            largest = Math.max(largest, d);
            if (d > (tolerance as number)) over++;
          }
          return { size, over, largest };
        },
        [a.toString("base64"), b.toString("base64"), TOLERANCE] as const,
      );
    } finally {
      await context.close();
    }
  }

  for (const [page, path] of Object.entries(PAGES) as [PageName, string][]) {
    test(`${path}, at ${MOBILE.width} and ${DESKTOP.width} px`, async () => {
      const served = await (await app.request(path)).text();
      const match = /<style>[\s\S]*?<\/style>/.exec(served);
      expect(match).not.toBeNull();
      const asWritten = served.replace(match![0], () => `<style>${full[page]}</style>`);
      for (const width of [MOBILE.width, DESKTOP.width]) {
        // Pages of different heights compare as over: -1.
        const { size, over } = await compare(await draw(served, width), await draw(asWritten, width));
        expect({ width, size, over }).toEqual({ width, size, over: 0 });
      }
    }, 60_000);
  }
});
