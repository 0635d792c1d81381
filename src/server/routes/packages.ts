import { Hono } from "hono";
import { purchaseLevel, unfreezeLevel } from "../../core/matrix";
import { matrixOf } from "../../core/matrixView";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { levelParam } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { idempotency, transact } from "../transact";
import { validatePath } from "../validate";

/** Buying and unfreezing levels, and the caller's matrix. Behind requireUser (/user/*). */
export const packageRoutes = new Hono<AppEnv>()
  .post(API.purchase.path, idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      API.purchase,
      (tx) => purchaseLevel(tx, c.get("user").id, program, level),
      () => ({ msg: MSG.levelPurchased }),
    );
  })
  .post(API.unfreeze.path, idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      API.unfreeze,
      (tx) => unfreezeLevel(tx, c.get("user").id, program, level),
      () => ({ msg: MSG.levelUnfrozen }),
    );
  })
  .get(API.matrix.path, validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    return reply(c, API.matrix, await matrixOf(c.get("deps").db, c.get("user").id, program, level));
  });
