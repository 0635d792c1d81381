import { Hono } from "hono";
import { setLevelPrices } from "../../core/admin";
import { listLevels } from "../../core/levels";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { levelParam, programParam } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { requireAdmin, requireUser } from "../middleware/auth";
import { reply } from "../reply";
import { transact } from "../transact";
import { validate, validatePath } from "../validate";

/** Level prices: read by anyone, changed by admins. */
export const programRoutes = new Hono<AppEnv>()
  .get(API.levels.path, validatePath(programParam), async (c) =>
    reply(c, API.levels, await listLevels(c.get("deps").db, c.req.valid("param").program)),
  )
  .patch(API.updateLevel.path, requireUser, requireAdmin, validatePath(levelParam), validate("json", API.updateLevel.body), (c) => {
    const { program, level } = c.req.valid("param");
    return transact(
      c,
      API.updateLevel,
      (tx) => setLevelPrices(tx, c.get("user").id, program, level, c.req.valid("json")),
      (updated) => ({ msg: MSG.levelUpdated, level: updated }),
    );
  });
