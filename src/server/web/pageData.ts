import type { Context } from "hono";
import { listLevels } from "../../core/levels";
import { cachedPlatformStats, type PlatformStats } from "../../core/platformStats";
import { PROGRAMS, type ProgramId } from "../../shared/constants";
import type { Cents } from "../../shared/money";
import type { AppEnv } from "../env";

/** The current prices of every level (program_levels), per program. */
export type LevelPrices = Record<ProgramId, { level: number; cost: Cents; unfreezeCost: Cents }[]>;

/**
 * What the server-rendered pages read from the database. Each loader answers what it can: a
 * failed query is logged and answers null (the page renders without that part, never a 500,
 * and is rendered again a moment later: src/server/web/pageCache.ts).
 */
export async function levelPrices(c: Context<AppEnv>): Promise<LevelPrices | null> {
  const { db, log } = c.get("deps");
  const prices: LevelPrices = { "3p": [], "6p": [] };
  try {
    for (const program of PROGRAMS) prices[program] = await listLevels(db, program);
  } catch (error) {
    (log ?? console.error)(`${c.req.path}: level prices unavailable`, error);
    return null;
  }
  return prices;
}

/** What the pages show when the prices could not be read: no levels (the pages say so). */
export const NO_PRICES: LevelPrices = { "3p": [], "6p": [] };

/** The landing page's real figures (members, paid out, levels active), at most a minute old; null if unavailable. */
export async function platformFigures(c: Context<AppEnv>): Promise<PlatformStats | null> {
  const { db, log } = c.get("deps");
  try {
    return await cachedPlatformStats(db);
  } catch (error) {
    (log ?? console.error)(`${c.req.path}: platform figures unavailable`, error);
    return null;
  }
}
