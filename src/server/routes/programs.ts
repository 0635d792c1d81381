import { Hono } from "hono";
import { z } from "zod";
import { listLevels, updateLevel } from "../../core/levels";
import { inTransaction } from "../../core/tx";
import { PROGRAMS } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { levelPriceSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { requireAdmin, requireUser } from "../middleware/auth";
import { dollars } from "../serialize";
import { validate, validatePath } from "../validate";

export const programParam = z.object({
  program: z.enum(PROGRAMS, { error: "Program not found." }),
});
export const levelParam = programParam.extend({
  level: z.coerce.number({ error: MSG.levelNotFound }).int(MSG.levelNotFound).min(1, MSG.levelNotFound).max(99, MSG.levelNotFound),
});

export const programRoutes = new Hono<AppEnv>()
  .get("/:program/levels", validatePath(programParam), async (c) => {
    const levels = await listLevels(c.get("deps").db, c.req.valid("param").program);
    return c.json(levels.map((l) => dollars(l, ["cost", "unfreezeCost"])));
  })
  .patch("/:program/levels/:level", requireUser, requireAdmin, validatePath(levelParam), validate("json", levelPriceSchema), async (c) => {
    const { program, level } = c.req.valid("param");
    const updated = await inTransaction(c.get("deps").db, (tx) => updateLevel(tx, program, level, c.req.valid("json")));
    return c.json({ msg: MSG.levelUpdated, level: dollars(updated, ["cost", "unfreezeCost"]) });
  });
