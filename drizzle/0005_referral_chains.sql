-- The referral tree cut into chains (src/core/chains.ts). Existing users are placed as a
-- heavy-path decomposition: each user's chain goes on through the partner with the biggest team
-- (the earliest such partner on a tie), which meets the rule sign-ups keep from then on.
ALTER TABLE "users" ADD COLUMN "chain_id" text;--> statement-breakpoint
WITH RECURSIVE placed(id, chain_id) AS (
  SELECT id, id FROM users WHERE referrer_id IS NULL
  UNION ALL
  SELECT u.id,
    CASE WHEN u.id = (
      SELECT f.id FROM users f LEFT JOIN team_counts t ON t.user_id = f.id
      WHERE f.referrer_id = u.referrer_id
      ORDER BY coalesce(t.total, 0) DESC, f.created_at, f.id LIMIT 1
    ) THEN p.chain_id ELSE u.id END
  FROM users u JOIN placed p ON u.referrer_id = p.id
)
UPDATE users SET chain_id = placed.chain_id FROM placed WHERE users.id = placed.id;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "chain_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_levels" ADD COLUMN "chain_id" text;--> statement-breakpoint
ALTER TABLE "user_levels" ADD COLUMN "depth" integer;--> statement-breakpoint
UPDATE user_levels SET chain_id = u.chain_id, depth = u.depth FROM users u WHERE u.id = user_levels.user_id;--> statement-breakpoint
ALTER TABLE "user_levels" ALTER COLUMN "chain_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_levels" ALTER COLUMN "depth" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "user_levels_receiver_idx" ON "user_levels" USING btree ("program","level","chain_id","depth") WHERE "user_levels"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "users_chain_depth_uq" ON "users" USING btree ("chain_id","depth") WHERE "users"."chain_id" IS NOT NULL;
