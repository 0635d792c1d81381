import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD_HEADER } from "../../shared/constants";
import type { Database } from "../../db/client";
import { testDeps } from "../../testing/harness";
import { useDatabase } from "../../testing/useHarness";
import { createApp } from "../app";
import { mountWeb } from "./index";
import type { Manifest } from "./manifest";

/*
 * The build an open dashboard compares with its own (src/client/lib/connection.ts): every API
 * answer, refusals and the live stream included, names the entry the dashboard shell loads now.
 */

const manifest: Manifest = {
  css: ["/build/styles-abc.css"],
  app: { entry: "/build/main-abc.js", preload: [] },
  landing: { entry: "/build/island-abc.js", preload: [] },
};

let database: Database;
useDatabase((made) => (database = made));

const publicDir = mkdtempSync(join(tmpdir(), "build-header-"));

test("API answers, refusals and the live stream's included, name the entry the dashboard shell loads", async () => {
  const app = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest, publicDir }) });
  const shell = await (await app.request("/userDashboard")).text();
  expect(shell).toContain(`<script type="module" src="${manifest.app.entry}"></script>`);
  for (const path of ["/api/auth/admin-referral-id", "/api/user/events", "/api/no-such-thing"]) {
    const res = await app.request(path);
    expect({ path, build: res.headers.get(BUILD_HEADER) }).toEqual({ path, build: manifest.app.entry });
    await res.body?.cancel();
  }
  // Pages carry no such header: the page itself is the build.
  expect((await app.request("/userDashboard")).headers.get(BUILD_HEADER)).toBeNull();
});

test("without a web side, or without a client build, answers name no build", async () => {
  const apiOnly = createApp(testDeps(database.db));
  expect((await apiOnly.request("/api/auth/admin-referral-id")).headers.get(BUILD_HEADER)).toBeNull();
  const unbuilt = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest: null, publicDir }) });
  expect((await unbuilt.request("/api/auth/admin-referral-id")).headers.get(BUILD_HEADER)).toBeNull();
});
