DROP INDEX "deposits_live_txid_uq";--> statement-breakpoint
ALTER TABLE "admin_audit" ALTER COLUMN "admin_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "network" text DEFAULT 'TRC20' NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "tx_hash" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "chain_evidence" jsonb;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "check_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_tx_hash" text;--> statement-breakpoint
-- Deposits verified on chain (docs/rules.md#deposits). Every older request was on TRON: the
-- column's default. Each gets the canonical form of the ID that was typed, when that is a valid
-- TRC20 ID: Unicode NFKC, trimmed, lower case, without 0x, then exactly 64 hex. Among the live
-- requests (pending or accepted) that spell one transaction differently, only the first keeps it
-- (an accepted one before a pending one, then the oldest): the others keep their typed text and
-- no canonical ID, and the admin sees them as IDs from before verification. Text that is no
-- valid ID stays as typed, readable, without a canonical ID.
WITH typed AS (
  SELECT id, status, created_at,
    regexp_replace(
      lower(btrim(CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(transaction_id, NFKC) ELSE transaction_id END, E' \t\r\n')),
      '^0x', '') AS canonical
  FROM deposits
), valid AS (
  SELECT id, status, canonical,
    row_number() OVER (PARTITION BY canonical, status = 'declined' ORDER BY status = 'accepted' DESC, created_at, id) AS rank
  FROM typed
  WHERE canonical ~ '^[0-9a-f]{64}$'
)
UPDATE deposits SET tx_hash = valid.canonical FROM valid
WHERE deposits.id = valid.id AND (valid.status = 'declined' OR valid.rank = 1);--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_tx_uq" ON "deposits" USING btree ("network","tx_hash") WHERE "deposits"."status" <> 'declined';--> statement-breakpoint
CREATE INDEX "deposits_check_due_idx" ON "deposits" USING btree ("next_check_at") WHERE "deposits"."status" = 'pending' AND "deposits"."next_check_at" IS NOT NULL;