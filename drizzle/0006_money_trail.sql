CREATE TABLE "missed_earnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"program" text NOT NULL,
	"level" smallint NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missed_earnings_amount_positive" CHECK ("missed_earnings"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "missed_earnings" ADD CONSTRAINT "missed_earnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missed_earnings" ADD CONSTRAINT "missed_earnings_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "missed_earnings_user_idx" ON "missed_earnings" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "placements_owner_order_idx" ON "placements" USING btree ("owner_id","program","level","id");--> statement-breakpoint
CREATE INDEX "placements_purchase_idx" ON "placements" USING btree ("buyer_id","program","level");--> statement-breakpoint
CREATE INDEX "user_levels_frozen_idx" ON "user_levels" USING btree ("program","level","chain_id","depth") WHERE "user_levels"."status" = 'frozen';--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
-- Placements made before this migration: the amount is that of the purchase's one transfer.
UPDATE "placements" p SET "amount" = t."amount" FROM "transfers" t WHERE t."id" = p."transfer_id";
