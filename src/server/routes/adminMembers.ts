import { type Context, Hono } from "hono";
import { listAudit } from "../../core/audit";
import { matrixOf } from "../../core/matrixView";
import { memberRecord, requireMember } from "../../core/memberRecord";
import { missedOf } from "../../core/missed";
import { requestsOf } from "../../core/requests";
import { partnersOf, transactionsOf } from "../../core/statement";
import { TOTAL_COUNT_HEADER } from "../../shared/constants";
import { API, type ApiEndpoint } from "../../shared/contract";
import { levelParam } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { type AnswerOf, reply } from "../reply";
import { validate, validatePath } from "../validate";

/**
 * A member's record for the operator (docs/api.md, "A member's record"): behind requireUser and
 * requireAdmin (/admin/*). Each list calls the core read of the member's own page with the
 * member's id, a page of `limit`, and answers the rows with the count in X-Total-Count.
 */

/** The member the path names, not deleted (else 404 user_not_found). */
async function member(c: Context<AppEnv>): Promise<string> {
  const id = c.req.param("id")!;
  await requireMember(c.get("deps").db, id);
  return id;
}

/** One page's rows, and how many there are in all in the header. */
function page<E extends ApiEndpoint>(c: Context<AppEnv>, endpoint: E, rows: AnswerOf<E>, total: number) {
  c.header(TOTAL_COUNT_HEADER, String(total));
  return reply(c, endpoint, rows);
}

export const adminMemberRoutes = new Hono<AppEnv>()
  .get(API.memberRecord.path, async (c) => reply(c, API.memberRecord, await memberRecord(c.get("deps").db, c.req.param("id"))))
  .get(API.memberTransactions.path, validate("query", API.memberTransactions.query), async (c) => {
    const { page: at, limit, ...filter } = c.req.valid("query");
    const { transactions, total } = await transactionsOf(c.get("deps").db, await member(c), at, filter, limit);
    return page(c, API.memberTransactions, transactions, total);
  })
  .get(API.memberMissed.path, validate("query", API.memberMissed.query), async (c) => {
    const { page: at, limit, program, level } = c.req.valid("query");
    const { items, total } = await missedOf(c.get("deps").db, await member(c), at, { program, level }, limit);
    return page(c, API.memberMissed, items, total);
  })
  .get(API.memberRequests.path, validate("query", API.memberRequests.query), async (c) => {
    const { db, config } = c.get("deps");
    const { page: at, limit, type } = c.req.valid("query");
    const { items, total } = await requestsOf(db, await member(c), at, type, (n) => config.chain.networks[n].confirmations, limit);
    return page(c, API.memberRequests, items, total);
  })
  .get(API.memberPartners.path, validate("query", API.memberPartners.query), async (c) => {
    const { page: at, limit } = c.req.valid("query");
    const { partners, onList } = await partnersOf(c.get("deps").db, await member(c), at, undefined, undefined, limit);
    return page(c, API.memberPartners, partners, onList);
  })
  .get(API.memberAudit.path, validate("query", API.memberAudit.query), async (c) => {
    const { page: at, limit } = c.req.valid("query");
    const { entries, total } = await listAudit(c.get("deps").db, at, { limit, about: await member(c) });
    return page(c, API.memberAudit, entries, total);
  })
  .get(API.memberMatrix.path, validatePath(levelParam), validate("query", API.memberMatrix.query), async (c) => {
    const { program, level } = c.req.valid("param");
    return reply(c, API.memberMatrix, await matrixOf(c.get("deps").db, await member(c), program, level, c.req.valid("query").cycle));
  });
