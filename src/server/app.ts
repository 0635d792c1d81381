import { healthRoutes } from "./health";
import { createMetrics, metricsRoutes } from "./metrics";
import { observer, observeRequests, observerOf } from "./requestLog";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Deps } from "./env";
import { onError, refusal } from "./errors";
import { requireAdmin, requireUser } from "./middleware/auth";
import { adminRoutes } from "./routes/admin";
import { adminMemberRoutes } from "./routes/adminMembers";
import { authRoutes } from "./routes/auth";
import { programRoutes } from "./routes/programs";
import { siteRoutes } from "./routes/site";
import { packageRoutes } from "./routes/packages";
import { statementRoutes } from "./routes/statement";
import { BUILD_HEADER, TOTAL_COUNT_HEADER } from "../shared/constants";
import { userRoutes } from "./routes/user";
import { notificationRoutes } from "./routes/notifications";

/**
 * The client build the web side serves (its dashboard entry's URL), set by mountWeb for its app.
 * Read per request: a rebuild next to a running server changes it.
 */
export const buildOf = new WeakMap<object, () => string | undefined>();

export interface AppOptions {
  /** Adds the web side (pages and assets) after the API. */
  web?: (app: Hono<AppEnv>) => void;
}

/** The whole HTTP surface. Middleware order: headers, public API, auth, admin guard. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  // First: a request's id, log line and metrics cover everything below.
  const metrics = createMetrics(deps.db);
  const observe = observer(deps.logger, metrics);
  observerOf.set(app, observe);
  app.use("*", observeRequests(observe));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  // No API answer is kept by a browser or a proxy: balances and tokens are never served stale
  // or to the next user of a shared machine. Refusals too. Pages and assets set their own.
  app.use("/api/*", async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
    const build = buildOf.get(app)?.();
    if (build) c.res.headers.set(BUILD_HEADER, build);
  });
  app.use(
    "*",
    secureHeaders({
      strictTransportSecurity: "max-age=31536000; includeSubDomains",
      referrerPolicy: "strict-origin-when-cross-origin",
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    }),
  );

  const api = new Hono<AppEnv>();
  if (deps.config.corsOrigins.length > 0) {
    api.use(
      "*",
      cors({
        origin: deps.config.corsOrigins,
        allowHeaders: ["Content-Type", "x-auth-token", "Idempotency-Key"],
        exposeHeaders: [TOTAL_COUNT_HEADER],
        allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        maxAge: 600,
      }),
    );
  }
  api.use("*", async (c, next) => {
    // Path and query text reaches SQL parameters; Postgres text cannot hold NUL, so refuse it here once.
    if (/%00/.test(c.req.url)) return refusal(c, "bad_character");
    await next();
    // HEAD is answered by the GET route with its body dropped (Hono): a body that holds something
    // open (the live stream's subscription and heartbeat) is cancelled here, or it would stay open
    // unread (ten HEADs of /api/user/events took all of a member's places for live streams).
    if (c.req.method === "HEAD") await c.res.body?.cancel();
  });
  api.use("*", bodyLimit({ maxSize: deps.config.bodyLimit, onError: (c) => refusal(c, "too_large") }));
  // Every route file registers the full paths of src/shared/contract.ts (API); the guards go first.
  api.use("/user/*", requireUser);
  api.use("/admin/*", requireUser, requireAdmin);
  for (const routes of [authRoutes, programRoutes, siteRoutes, userRoutes, notificationRoutes, packageRoutes, statementRoutes, adminRoutes, adminMemberRoutes]) api.route("/", routes);
  api.all("*", (c) => refusal(c, "not_found"));
  app.route("/api", api);
  healthRoutes(app);
  metricsRoutes(app, metrics);

  options.web?.(app);
  app.notFound((c) => refusal(c, "not_found"));
  return app;
}

export type App = ReturnType<typeof createApp>;
