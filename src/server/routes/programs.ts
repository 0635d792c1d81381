import { Hono } from "hono";
import { z } from "zod";
import { setLevelPrices } from "../../core/admin";
import { listLevels } from "../../core/levels";
import { PROGRAMS } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { levelPriceSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { requireAdmin, requireUser } from "../middleware/auth";
import { dollars } from "../serialize";
import { transact } from "../transact";
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
  .patch("/:program/levels/:level", requireUser, requireAdmin, validatePath(levelParam), validate("json", levelPriceSchema), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      (tx) => setLevelPrices(tx, c.get("user").id, program, level, c.req.valid("json")),
      (updated) => ({ body: { msg: MSG.levelUpdated, level: dollars(updated, ["cost", "unfreezeCost"]) } }),
    );
  });
