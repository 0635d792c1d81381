import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./env";
import type { Logger } from "./logger";
import type { Metrics } from "./metrics";

/*
 * Every request: one log line (./logger.ts) and its count and latency in the metrics
 * (./metrics.ts), under its route pattern. The line holds the time, level, request id, method,
 * route pattern, status, duration in ms and the signed-in member's id: never the URL itself (its
 * query may carry a token or an email), a header, or a body.
 */

/** The header that carries a request's id, in and out. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** A caller's id is kept when it looks like one (a UUID, a trace id): short, and nothing a log could misread. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

export function requestIdOf(header: string | undefined): string {
  return header !== undefined && WELL_FORMED_ID.test(header) ? header : crypto.randomUUID();
}

/** What one answered request is logged and counted as. */
export interface Observed {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  member?: string;
}

/** Logs and counts one answered request. */
export type Observer = (observed: Observed) => void;

export function observer(logger: Logger | undefined, metrics: Metrics): Observer {
  return ({ requestId, method, route, status, ms, member }) => {
    metrics.observe(method, route, status, ms / 1000);
    if (!logger) return;
    const line = { reqId: requestId, method, route, status, ms, ...(member ? { member } : {}) };
    if (status >= 500) logger.error(line, "request");
    else logger.info(line, "request");
  };
}

const isCatchAll = (path: string) => path === "*" || path.endsWith("/*");

/**
 * The route pattern a request is counted under: that of the handler that answered; when a
 * middleware answered for the route behind it (a guard's 401, a body too large), that route's;
 * else the middleware's own pattern (`/api/*` for an unknown API path, `*` for pages and files).
 */
export function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  const index = Math.min(c.req.routeIndex, routes.length - 1);
  const answered = routes[index];
  if (!answered) return "*";
  if (answered.method !== "ALL") return answered.path;
  const behind = routes.slice(index + 1).find((r) => r.method !== "ALL" && !isCatchAll(r.path));
  return behind?.path ?? answered.path;
}

/** The route each answer of the app was counted under: the page cache counts the answers it replays alike (./web/pageCache.ts). */
export const answeredRoute = new WeakMap<Response, string>();

/** Each app's observer, for the page cache's answers, which do not go through the app. */
export const observerOf = new WeakMap<object, Observer>();

/** The first middleware of the app: the request's id, then, once answered, its log line and count. */
export function observeRequests(observe: Observer): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    const route = routeOf(c);
    answeredRoute.set(c.res, route);
    const user = c.get("user") as { id?: string } | undefined;
    observe({ requestId, method: c.req.method, route, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10, member: user?.id });
  };
}
