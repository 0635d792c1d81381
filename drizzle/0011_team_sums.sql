-- Team sizes without a counter per upline (src/core/teams.ts). For each chain of the referral
-- tree (src/core/chains.ts), a Fenwick tree over the position depth + 1 counts the users whose
-- way up leaves the chain at the chain's user of that depth (users on the chain leave it at their
-- own depth). Node i holds the count of positions i to i + lowbit(i) - 1, split over shards; a
-- sign-up adds 1 on the nodes of every chain its way up crosses, and a team size is the sum of
-- about 30 nodes of one chain (teamWithSql in src/core/teams.ts).
CREATE TABLE "team_sums" (
	"chain_id" text NOT NULL,
	"node" integer NOT NULL,
	"shard" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "team_sums_chain_id_node_shard_pk" PRIMARY KEY("chain_id","node","shard")
);
--> statement-breakpoint
-- team_sums made anew from the users table: every user not deleted counted on the way up from
-- their own place, chain by chain. Used once here, and by bench/tree.ts after a bulk load.
CREATE FUNCTION rebuild_team_sums() RETURNS void LANGUAGE sql AS $$
  DELETE FROM team_sums;
  WITH RECURSIVE way(chain_id, depth) AS (
    SELECT chain_id, depth FROM users WHERE deleted_at IS NULL
    UNION ALL
    SELECT r.chain_id, r.depth FROM way JOIN users head ON head.id = way.chain_id JOIN users r ON r.id = head.referrer_id
  )
  INSERT INTO team_sums (chain_id, node, shard, n)
  SELECT way.chain_id, nodes.node, 0, count(*)::integer
  FROM way, LATERAL (SELECT DISTINCT (way.depth + 1) & ~((1 << k) - 1) AS node FROM generate_series(0, 30) AS k) nodes
  WHERE nodes.node > 0
  GROUP BY way.chain_id, nodes.node;
$$;
--> statement-breakpoint
SELECT rebuild_team_sums();
--> statement-breakpoint
ALTER TABLE "team_counts" DROP COLUMN "total";
