import { type Context, Hono } from "hono";
import { refuse } from "../../core/errors";
import { previewPurchase, previewUnfreeze, purchaseLevel, unfreezeLevel } from "../../core/matrix";
import { matrixOf } from "../../core/matrixView";
import { missedOf } from "../../core/missed";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import type { Cents } from "../../shared/money";
import { levelActionSchema, levelParam } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { idempotency, transact } from "../transact";
import { firstProblem, sentAsJson, validate, validatePath } from "../validate";

/**
 * The body of a purchase or an unfreeze, which may be absent: `{expectedCost}`, the price the
 * member was shown (levelActionSchema). The earlier app's clients send no body at all, some with
 * a JSON Content-Type: an empty body is `{}`, not malformed JSON.
 */
async function expectedCostOf(c: Context<AppEnv>): Promise<Cents | undefined> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  if (!sentAsJson(c)) return refuse("validation", MSG.bodyNotJson);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse("bad_json");
  }
  const read = levelActionSchema.safeParse(body);
  if (!read.success) return refuse("validation", firstProblem(read.error.issues));
  return read.data.expectedCost;
}

/**
 * Buying and unfreezing levels, their previews, the caller's matrices and missed earnings.
 * Behind requireUser (/user/*).
 */
export const packageRoutes = new Hono<AppEnv>()
  .post(API.purchase.path, idempotency, validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    const expectedCost = await expectedCostOf(c);
    return transact(
      c,
      API.purchase,
      { reservingKey: (tx, key) => purchaseLevel(tx, c.get("user").id, program, level, key, expectedCost) },
      { msg: MSG.levelPurchased },
    );
  })
  .post(API.unfreeze.path, idempotency, validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    const expectedCost = await expectedCostOf(c);
    return transact(
      c,
      API.unfreeze,
      (tx) => unfreezeLevel(tx, c.get("user").id, program, level, expectedCost),
      { msg: MSG.levelUnfrozen },
    );
  })
  .get(API.purchasePreview.path, validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    return reply(c, API.purchasePreview, await previewPurchase(c.get("deps").db, c.get("user").id, program, level));
  })
  .get(API.unfreezePreview.path, validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    return reply(c, API.unfreezePreview, await previewUnfreeze(c.get("deps").db, c.get("user").id, program, level));
  })
  .get(API.matrix.path, validatePath(levelParam), validate("query", API.matrix.query), async (c) => {
    const { program, level } = c.req.valid("param");
    const { cycle } = c.req.valid("query");
    return reply(c, API.matrix, await matrixOf(c.get("deps").db, c.get("user").id, program, level, cycle));
  })
  .get(API.missed.path, validate("query", API.missed.query), async (c) => {
    const { page, program, level } = c.req.valid("query");
    return reply(c, API.missed, await missedOf(c.get("deps").db, c.get("user").id, page, { program, level }));
  });
