-- A transaction ID is one transaction whatever the network it is claimed on (docs/rules.md#deposits):
-- TRC20 and BEP20 IDs share one canonical form (64 hex, no 0x), and the index of live requests
-- was on (network, tx_hash), so the same hash claimed once as a TRC20 ID and once as a BEP20 ID
-- made two live requests, each of which an admin could accept. Where live requests on different
-- networks hold the same ID, one keeps it, as in migration 0016: an accepted one before a pending
-- one, then the oldest. The others give it up (and are no longer looked at on chain): a pending one
-- is then refused as a duplicate when accepted (adoptTypedTxHash); an accepted one was credited
-- before this release, and nothing is taken back here.
UPDATE deposits d SET tx_hash = NULL, next_check_at = NULL
FROM (
  SELECT id, row_number() OVER (PARTITION BY tx_hash ORDER BY status = 'accepted' DESC, created_at, id) AS place
  FROM deposits WHERE tx_hash IS NOT NULL AND status <> 'declined'
) ranked
WHERE d.id = ranked.id AND ranked.place > 1;--> statement-breakpoint
DROP INDEX "deposits_live_tx_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_tx_uq" ON "deposits" USING btree ("tx_hash") WHERE "deposits"."status" <> 'declined';--> statement-breakpoint
-- A payout's transaction ID could be recorded on two withdrawals, both members shown the one
-- payment as theirs. Where it was, the first withdrawal decided keeps it; the others no longer
-- show it (the audit record of each decision keeps the ID the admin gave, for whoever sorts it out).
UPDATE withdrawals w SET payout_tx_hash = NULL
FROM (
  SELECT id, row_number() OVER (PARTITION BY payout_tx_hash ORDER BY decided_at, created_at, id) AS place
  FROM withdrawals WHERE payout_tx_hash IS NOT NULL
) ranked
WHERE w.id = ranked.id AND ranked.place > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_payout_tx_uq" ON "withdrawals" USING btree ("payout_tx_hash") WHERE "withdrawals"."payout_tx_hash" IS NOT NULL;
