import { teamWithSql } from "../core/teams";
import type { RunQuery } from "../core/ledgerChecks";

/**
 * The referral-chain invariants of chains.ts, each a query for the ids that break it (plain SQL,
 * so the chaos harness runs the same checks over its own connection).
 */
export const TREE_CHECKS = {
  /** Users whose depth is not their referrer's plus one. */
  wrongDepth: `
    SELECT u.id FROM users u LEFT JOIN users p ON p.id = u.referrer_id
    WHERE u.depth <> coalesce(p.depth + 1, 0)`,
  /** Users on a chain (chain_id not their own id) whose referrer is not on the same chain. */
  brokenLinks: `
    SELECT u.id FROM users u LEFT JOIN users p ON p.id = u.referrer_id
    WHERE u.chain_id <> u.id AND p.chain_id IS DISTINCT FROM u.chain_id`,
  /** Users with partners none of whom continues their chain. */
  unfinishedChains: `
    SELECT p.id FROM users p
    WHERE EXISTS (SELECT 1 FROM users c WHERE c.referrer_id = p.id)
      AND NOT EXISTS (SELECT 1 FROM users c WHERE c.referrer_id = p.id AND c.chain_id = p.chain_id)`,
  /** user_levels rows whose copied chain or depth differs from the user's. */
  staleLevelRows: `
    SELECT ul.user_id AS id FROM user_levels ul JOIN users u ON u.id = ul.user_id
    WHERE ul.chain_id <> u.chain_id OR ul.depth <> u.depth`,
  /**
   * Users whose team size as GET /api/auth reads it (team_sums, src/core/teams.ts) is not the
   * number of their descendants who are not deleted, counted here the slow way.
   */
  wrongTeamSizes: `
    WITH RECURSIVE above(descendant, ancestor) AS (
      SELECT id, referrer_id FROM users WHERE referrer_id IS NOT NULL AND deleted_at IS NULL
      UNION ALL
      SELECT above.descendant, u.referrer_id FROM above JOIN users u ON u.id = above.ancestor WHERE u.referrer_id IS NOT NULL
    ),
    team AS (SELECT ancestor AS id, count(*) AS n FROM above GROUP BY ancestor)
    SELECT u.id FROM users u LEFT JOIN team ON team.id = u.id
    WHERE ${teamWithSql("u.chain_id", "u.depth")} - CASE WHEN u.deleted_at IS NULL THEN 1 ELSE 0 END <> coalesce(team.n, 0)`,
  /** Users whose direct-partner counter (team_counts) is not the number of their partners who are not deleted. */
  wrongDirectCounts: `
    SELECT u.id FROM users u LEFT JOIN team_counts t ON t.user_id = u.id
    WHERE coalesce(t.direct, 0) <> (SELECT count(*) FROM users c WHERE c.referrer_id = u.id AND c.deleted_at IS NULL)`,
};

export type TreeReport = Record<keyof typeof TREE_CHECKS, string[]>;

/** Reads the referral-chain invariants: for each check, the ids that break it. */
export async function readTree(run: RunQuery): Promise<TreeReport> {
  const report = {} as TreeReport;
  for (const [name, query] of Object.entries(TREE_CHECKS)) {
    report[name as keyof TreeReport] = (await run(query)).map((r) => String(r.id));
  }
  return report;
}

/** Each break of the referral tree as a sentence; none when the tree is consistent. */
export function treeViolations(report: TreeReport): string[] {
  return Object.entries(report).flatMap(([name, ids]) => ids.map((id) => `referral tree: ${name}: user ${id}`));
}
