import type { Context } from "hono";
import { brotliCompress, constants as zlib, gzipSync } from "node:zlib";
import { pendingContentVersion, readContentVersion } from "../../core/contentVersion";
import { cachedPlatformStats, type PlatformStats } from "../../core/platformStats";
import type { Db } from "../../db/client";
import type { AppEnv } from "../env";
import { answeredRoute, type Observer, observerOf, REQUEST_ID_HEADER, requestIdOf } from "../requestLog";

/*
 * The server-rendered pages that are the same for everyone (the landing page and its newsletter
 * variants, /how-it-works, the app shells), rendered once per content and kept in memory,
 * compressed ahead (gzip at once, brotli in the background), with an ETag.
 *
 * "Content" is what those pages show from outside the code: the content version (a `settings`
 * row written with every price edit, src/core/contentVersion.ts), the platform figures (cached a
 * minute and read again in the background, so a look never waits for them: src/core/platformStats.ts)
 * and the build manifest. Each process looks at them at most
 * every CHECK_MS, in the background while pages are served; when one changed, the pages are
 * rendered again on their next request. Pages are served without waiting only while the last look
 * began less than STALE_MS ago: a request that comes later (the process had none for a while)
 * waits for a look first, so an edit made elsewhere shows on every process within STALE_MS, however
 * quiet it was. A price edit made by this process is seen at once: until the version it wrote is
 * read back, every request waits for a look begun after it came (a look begun before may have
 * read the version before the edit committed). A page whose data could not be read (the database
 * down) is rendered again at the next look.
 *
 * A display cache local to the process (docs/rules.md#several-processes): nothing another process
 * needs is kept here, and what it can cost is a page a few seconds old.
 */

/** How often a process looks at the content version, at most. */
export const CHECK_MS = 2_000;
/** How old the last look may be for a page to be served without waiting for another. */
export const STALE_MS = 2 * CHECK_MS;

type Bytes = Uint8Array<ArrayBuffer>;
const bytesOf = (b: Buffer): Bytes => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);

/** A page as kept: its bytes in each encoding, and its ETag. */
export interface CachedPage {
  status: 200 | 404;
  etag: string;
  identity: Bytes;
  gzip: Bytes;
  /** Filled in the background; until then brotli clients get gzip (or, refusing gzip, the plain page). */
  br?: Bytes;
}

/** What a page build answers: the HTML, and whether every part of its data could be read. */
export interface Rendered {
  html: string;
  complete: boolean;
}

interface Entry {
  page: Promise<CachedPage>;
  /** Set once built. */
  ready?: CachedPage;
  complete: boolean;
  /** The headers of the app's full answer with this page, once seen (FastPages answers with them). */
  headers?: AnswerHeaders;
}

/** Ready-made header sets of one page: one per encoding, and the 304's. */
interface AnswerHeaders {
  identity: Headers;
  gzip: Headers;
  br: Headers;
  notModified: Headers;
}

/** Which page (of which cache) an answer of the app carries: FastPages learns from it. */
const carried = new WeakMap<Response, { cache: PageCache; key: string; entry: Entry }>();

const UNREADABLE: unique symbol = Symbol("unreadable");

const figuresKey = (f: PlatformStats | null) => (f ? `${f.members}/${f.paidOut}/${f.levelsActive}` : "");

/** Compresses the HTML: gzip now (a few ms), brotli at its best in the background (a few hundred ms, off the main thread). */
export function encodePage(html: string, status: 200 | 404 = 200): CachedPage {
  const identity = new TextEncoder().encode(html);
  const page: CachedPage = {
    status,
    etag: `W/"${Bun.hash(identity).toString(36)}"`,
    identity,
    gzip: bytesOf(gzipSync(identity, { level: 9 })),
  };
  brotliCompress(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } }, (error, br) => {
    if (!error) page.br = bytesOf(br);
  });
  return page;
}

/** The encodings a client takes, from its Accept-Encoding (memoized: clients send a handful of distinct values). */
const accepted = new Map<string, { br: boolean; gzip: boolean }>();
export function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  const text = header ?? "";
  let found = accepted.get(text);
  if (!found) {
    const ok = new Set<string>();
    for (const part of text.toLowerCase().split(",")) {
      const [name = "", ...params] = part.split(";").map((s) => s.trim());
      const q = params.find((p) => p.startsWith("q="));
      if (!q || Number(q.slice(2)) > 0) ok.add(name);
    }
    found = { br: ok.has("br"), gzip: ok.has("gzip") || ok.has("x-gzip") };
    if (accepted.size > 200) accepted.clear();
    accepted.set(text, found);
  }
  return found;
}

/** Whether an If-None-Match names the page's ETag. */
const matches = (ifNoneMatch: string | null | undefined, etag: string) =>
  !!ifNoneMatch && (ifNoneMatch === etag || ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim() === etag));

/** The page as an answer: 304 when the client has it, else the best encoding it takes. */
export function answer(c: Context<AppEnv>, page: CachedPage): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-cache", ETag: page.etag, Vary: "Accept-Encoding" };
  if (matches(c.req.header("If-None-Match"), page.etag)) return c.body(null, 304, headers);
  const { br, gzip } = acceptedEncodings(c.req.header("Accept-Encoding"));
  headers["Content-Type"] = "text/html; charset=UTF-8";
  if (br && page.br) {
    headers["Content-Encoding"] = "br";
    return c.body(page.br, page.status, headers);
  }
  // Until brotli is ready a brotli client gets gzip when it takes it, else the plain page.
  if (gzip) {
    headers["Content-Encoding"] = "gzip";
    return c.body(page.gzip, page.status, headers);
  }
  return c.body(page.identity, page.status, headers);
}

/**
 * The rendered pages of one app (one database): `serve(c, key, render)` answers the page `key`,
 * rendered by `render` when the content changed since it was last.
 */
export class PageCache {
  private pages = new Map<string, Entry>();
  /** When the last finished look began: the pages show the content as it was then, or later. */
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** The look in flight, and when it began. */
  private checking: { startedAt: number; done: Promise<void> } | undefined;
  /** The look to begin once the one in flight (`after`) has finished, shared by the requests that need a later one. */
  private nextCheck: { after: Promise<void>; done: Promise<void> } | undefined;
  private version: string | null | typeof UNREADABLE | undefined;
  private figures: string | undefined;
  private manifest: unknown;

  constructor(
    private readonly db: Db,
    /** The build manifest as it is now (re-read when the file changes). */
    private readonly currentManifest: () => unknown,
    private readonly now: () => number = Date.now,
  ) {}

  async serve(c: Context<AppEnv>, key: string, render: () => Promise<Rendered> | Rendered): Promise<Response> {
    const looking = this.look();
    if (looking) await looking;
    let entry = this.pages.get(key);
    if (!entry) {
      const made: Entry = {
        complete: true,
        page: Promise.resolve()
          .then(render)
          .then((r) => {
            made.complete = r.complete;
            return (made.ready = encodePage(r.html));
          }),
      };
      made.page.catch(() => {
        if (this.pages.get(key) === made) this.pages.delete(key);
      });
      this.pages.set(key, (entry = made));
    }
    const response = answer(c, entry.ready ?? (await entry.page));
    if (response.status === 200) carried.set(response, { cache: this, key, entry });
    return response;
  }

  /** The page `key` as built for the current content, when no look is due (so well within STALE_MS): what FastPages may answer with. */
  current(key: string): Entry | undefined {
    const now = this.now();
    if (this.version === undefined || now - this.checkedAt >= CHECK_MS || now < this.checkedAt) return undefined;
    const pending = pendingContentVersion();
    if (pending !== undefined && pending !== this.version) return undefined;
    return this.pages.get(key);
  }

  /** Undefined when the pages may be served as they are; else the look to wait for first. */
  private look(): Promise<void> | undefined {
    const now = this.now();
    const pending = pendingContentVersion();
    // A local edit not seen yet: a look already in flight may have read the version before it committed.
    if (pending !== undefined && pending !== this.version) return this.checkAfter();
    if (this.version === undefined) return this.check();
    const age = now - this.checkedAt;
    if (age >= 0 && age < CHECK_MS) return undefined;
    if (age >= 0 && age < STALE_MS) {
      // Looked at in the background: the pages are served as they are meanwhile.
      void this.check();
      return undefined;
    }
    // Too old to serve without looking (or the clock went back): a look begun within STALE_MS will do.
    const running = this.checking;
    if (running && now >= running.startedAt && now - running.startedAt < STALE_MS) return running.done;
    return this.checkAfter();
  }

  /** Reads the content's parts (one at a time: concurrent requests share one look) and drops the pages that are out of date. */
  private check(): Promise<void> {
    if (this.checking) return this.checking.done;
    const startedAt = this.now();
    const running = { startedAt, done: Promise.resolve() };
    this.checking = running;
    running.done = (async () => {
      try {
        const version: string | null | typeof UNREADABLE = await readContentVersion(this.db).catch((): typeof UNREADABLE => UNREADABLE);
        const figures = figuresKey(await cachedPlatformStats(this.db).catch(() => null));
        const manifest = this.currentManifest();
        const changed = version !== this.version || figures !== this.figures || manifest !== this.manifest;
        this.version = version;
        this.figures = figures;
        this.manifest = manifest;
        if (changed) this.pages = new Map();
        else {
          for (const [key, entry] of this.pages) if (entry.ready && !entry.complete) this.pages.delete(key);
        }
        this.checkedAt = startedAt;
      } finally {
        if (this.checking === running) this.checking = undefined;
      }
    })();
    return running.done;
  }

  /** A look begun from now on: when one is in flight (begun earlier), the next one after it, shared by all who ask meanwhile. */
  private checkAfter(): Promise<void> {
    const running = this.checking;
    if (!running) return this.check();
    if (this.nextCheck?.after !== running.done) {
      const next = () => this.check();
      this.nextCheck = { after: running.done, done: running.done.then(next, next) };
    }
    return this.nextCheck.done;
  }
}

/** Headers that belong to one answer's body or moment, not to the page: never replayed. */
const PER_ANSWER = new Set(["content-encoding", "content-length", "transfer-encoding", "date", "x-request-id"]);

function headerSets(from: Headers): AnswerHeaders {
  const kept: [string, string][] = [];
  from.forEach((value, name) => {
    if (!PER_ANSWER.has(name)) kept.push([name, value]);
  });
  const withEncoding = (encoding?: string) => {
    const headers = new Headers(kept);
    if (encoding) headers.set("Content-Encoding", encoding);
    return headers;
  };
  const notModified = withEncoding();
  notModified.delete("Content-Type");
  return { identity: withEncoding(), gzip: withEncoding("gzip"), br: withEncoding("br"), notModified };
}

/** The part of a request URL after the host: "/", "/?newsletter=subscribed". */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start < 0 ? "/" : url.slice(start);
}

/**
 * The server's way to the cached pages without the app in between (the app's middleware and
 * routing cost more than the page itself): `wrap(app.fetch)` answers a GET for a URL whose
 * page the app served last, from the same bytes with the same headers as the app's answer
 * (security headers included: they are copied from it, once per page and content), and hands
 * every other request to the app. Whenever a look at the content is due or a local edit is
 * pending, the app answers, and looks.
 *
 * So a cached page's answer must depend on nothing but its URL, Accept-Encoding and
 * If-None-Match: no middleware may add per-request headers (cookies, nonces) to the pages.
 */
export class FastPages {
  private readonly routes = new Map<string, { cache: PageCache; key: string; route: string }>();
  /** URLs remembered at most (each variant of a query string is one). */
  static readonly MAX_ROUTES = 256;

  wrap<S>(fetch: (request: Request, server: S) => Response | Promise<Response>, observe?: Observer): (request: Request, server: S) => Response | Promise<Response> {
    return (request, server) => {
      const quick = this.answer(request);
      if (quick) {
        // Logged and counted as the app's answer for the URL was (src/server/requestLog.ts), with an id of its own.
        const requestId = requestIdOf(request.headers.get(REQUEST_ID_HEADER) ?? undefined);
        quick.headers.set(REQUEST_ID_HEADER, requestId);
        observe?.({ requestId, method: "GET", route: this.routes.get(pathOf(request.url))?.route ?? "*", status: quick.status, ms: 0 });
        return quick;
      }
      const response = fetch(request, server);
      return response instanceof Promise ? response.then((r) => this.learn(request, r)) : this.learn(request, response);
    };
  }

  /** The answer from memory, or undefined when the app must answer. */
  answer(request: Request): Response | undefined {
    if (request.method !== "GET") return undefined;
    const route = this.routes.get(pathOf(request.url));
    const entry = route?.cache.current(route.key);
    const page = entry?.ready;
    const headers = entry?.headers;
    if (!page || !headers) return undefined;
    if (matches(request.headers.get("If-None-Match"), page.etag)) return new Response(null, { status: 304, headers: headers.notModified });
    const { br, gzip } = acceptedEncodings(request.headers.get("Accept-Encoding") ?? undefined);
    if (br && page.br) return new Response(page.br, { status: page.status, headers: headers.br });
    if (gzip) return new Response(page.gzip, { status: page.status, headers: headers.gzip });
    return new Response(page.identity, { status: page.status, headers: headers.identity });
  }

  private learn(request: Request, response: Response): Response {
    const page = carried.get(response);
    if (page) {
      page.entry.headers ??= headerSets(response.headers);
      const path = pathOf(request.url);
      if (!this.routes.has(path)) {
        if (this.routes.size >= FastPages.MAX_ROUTES) this.routes.clear();
        this.routes.set(path, { cache: page.cache, key: page.key, route: answeredRoute.get(response) ?? "*" });
      }
    }
    return response;
  }
}

/** The FastPages of each app that mounted the web pages (src/server/web/index.tsx). */
export const fastPagesOf = new WeakMap<object, FastPages>();

/** `app.fetch`, with the cached pages answered ahead of the app when it has them. */
export function serverFetch<S>(app: { fetch: (request: Request, server: S) => Response | Promise<Response> }) {
  const fast = fastPagesOf.get(app);
  return fast ? fast.wrap(app.fetch, observerOf.get(app)) : app.fetch;
}
