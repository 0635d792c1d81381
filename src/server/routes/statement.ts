import { withoutQueryParams } from "../../core/errors";
import { Hono } from "hono";
import { earningsOf } from "../../core/earnings";
import { requestsOf } from "../../core/requests";
import { checkStatementFilter, partnersOf, transactionsOf } from "../../core/statement";
import { statementCsv } from "../../core/statementCsv";
import { API } from "../../shared/contract";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { validate } from "../validate";

/** The caller's team, ledger history, requests and earnings. Behind requireUser (/user/*). */
export const statementRoutes = new Hono<AppEnv>()
  .get(API.partners.path, validate("query", API.partners.query), async (c) => {
    const { page, of, after } = c.req.valid("query");
    return reply(c, API.partners, await partnersOf(c.get("deps").db, c.get("user").id, page, of, after));
  })
  .get(API.transactions.path, validate("query", API.transactions.query), async (c) => {
    const { page, ...filter } = c.req.valid("query");
    return reply(c, API.transactions, await transactionsOf(c.get("deps").db, c.get("user").id, page, filter));
  })
  .get(API.transactionsCsv.path, validate("query", API.transactionsCsv.query), async (c) => {
    const filter = c.req.valid("query");
    checkStatementFilter(filter);
    const chunks = statementCsv(c.get("deps").db, c.get("user").id, filter);
    // The header and the first batch are read before answering, so a failure there is an
    // ordinary error answer; the rest streams, one batch at a time.
    const first: string[] = [];
    for (let i = 0; i < 2; i++) {
      const next = await chunks.next();
      if (next.done) break;
      first.push(next.value);
    }
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(first.join("")));
      },
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          // The status is sent already: the download breaks off, and the failure is logged.
          const log = c.get("deps").log ?? ((message: string, e?: unknown) => console.error(message, e));
          log(`${c.req.method} ${c.req.path} failed while streaming`, withoutQueryParams(error));
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return c.body(body, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="statement.csv"',
      "Cache-Control": "no-store",
    });
  })
  .get(API.requests.path, validate("query", API.requests.query), async (c) =>
    reply(
      c,
      API.requests,
      await requestsOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page, c.req.valid("query").type, (n) => c.get("deps").config.chain.networks[n].confirmations),
    ),
  )
  .get(API.earnings.path, validate("query", API.earnings.query), async (c) =>
    reply(c, API.earnings, await earningsOf(c.get("deps").db, c.get("user").id, c.req.valid("query").days)),
  );
