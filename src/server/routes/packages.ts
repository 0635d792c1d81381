import { Hono } from "hono";
import { purchaseLevel, unfreezeLevel } from "../../core/matrix";
import { matrixOf } from "../../core/matrixView";
import { MSG } from "../../shared/messages";
import { toDollars } from "../../shared/money";
import type { AppEnv } from "../env";
import { idempotency, transact } from "../transact";
import { validatePath } from "../validate";
import { levelParam } from "./programs";

/** Buying and unfreezing levels, and the caller's matrix. Mounted under /user behind requireUser. */
export const packageRoutes = new Hono<AppEnv>()
  .post("/packages/purchase/:program/:level", idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      (tx) => purchaseLevel(tx, c.get("user").id, program, level),
      () => ({ body: { msg: MSG.levelPurchased } }),
    );
  })
  .post("/packages/unfreeze/:program/:level", idempotency, validatePath(levelParam), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      (tx) => unfreezeLevel(tx, c.get("user").id, program, level),
      () => ({ body: { msg: MSG.levelUnfrozen } }),
    );
  })
  .get("/matrix/:program/:level", validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    const matrix = await matrixOf(c.get("deps").db, c.get("user").id, program, level);
    return c.json({
      ...matrix,
      slots: matrix.slots.map((s) => ({ ...s, filledAt: s.filledAt?.toISOString() ?? null })),
      earned: toDollars(matrix.earned),
    });
  });
