import { Hono } from "hono";
import { purchaseLevel, unfreezeLevel } from "../../core/matrix";
import { matrixOf } from "../../core/matrixView";
import { inTransaction } from "../../core/tx";
import { MSG } from "../../shared/messages";
import { toDollars } from "../../shared/money";
import type { AppEnv } from "../env";
import { validatePath } from "../validate";
import { levelParam } from "./programs";

/** Buying and unfreezing levels, and the caller's matrix. Mounted under /user behind requireUser. */
export const packageRoutes = new Hono<AppEnv>()
  .post("/packages/purchase/:program/:level", validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    await inTransaction(c.get("deps").db, (tx) => purchaseLevel(tx, c.get("user").id, program, level));
    return c.json({ msg: MSG.levelPurchased });
  })
  .post("/packages/unfreeze/:program/:level", validatePath(levelParam), async (c) => {
    const { program, level } = c.req.valid("param");
    await inTransaction(c.get("deps").db, (tx) => unfreezeLevel(tx, c.get("user").id, program, level));
    return c.json({ msg: MSG.levelUnfrozen });
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
