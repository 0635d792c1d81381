DROP INDEX "deposits_live_txid_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_txid_uq" ON "deposits" USING btree (lower("transaction_id")) WHERE "deposits"."status" <> 'declined';