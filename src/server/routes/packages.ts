import { Hono } from "hono";
import { previewPurchase, previewUnfreeze, purchaseLevel, unfreezeLevel } from "../../core/matrix";
import { matrixOf } from "../../core/matrixView";
import { missedOf } from "../../core/missed";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { levelParam } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { idempotency, transact } from "../transact";
import { validate, validatePath } from "../validate";

/**
 * Buying and unfreezing levels, their previews, the caller's matrices and missed earnings.
 * Behind requireUser (/user/*).
 */
export const packageRoutes = new Hono<AppEnv>()
  .post(API.purchase.path, idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      API.purchase,
      { reservingKey: (tx, key) => purchaseLevel(tx, c.get("user").id, program, level, key) },
      { msg: MSG.levelPurchased },
    );
  })
  .post(API.unfreeze.path, idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      API.unfreeze,
      (tx) => unfreezeLevel(tx, c.get("user").id, program, level),
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
  .get(API.missed.path, validate("query", API.missed.query), async (c) =>
    reply(c, API.missed, await missedOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page)),
  );
