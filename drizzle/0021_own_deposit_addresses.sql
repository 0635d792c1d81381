CREATE TABLE "chain_watch" (
	"network" text PRIMARY KEY NOT NULL,
	"xpub" text NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"next_block" bigint,
	"head_block" bigint,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "confirming_transfers" (
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"user_id" text NOT NULL,
	"block_number" bigint NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" bigint NOT NULL,
	"chain_amount" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "confirming_transfers_network_tx_hash_log_index_pk" PRIMARY KEY("network","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"network" text NOT NULL,
	"index" integer NOT NULL,
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"hex" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"swept_at" timestamp with time zone,
	CONSTRAINT "deposit_addresses_network_index_pk" PRIMARY KEY("network","index")
);
--> statement-breakpoint
DROP INDEX "deposits_live_tx_uq";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "log_index" integer;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "chain_amount" text;--> statement-breakpoint
ALTER TABLE "confirming_transfers" ADD CONSTRAINT "confirming_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "confirming_transfers_user_idx" ON "confirming_transfers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_uq" ON "deposit_addresses" USING btree ("user_id","network");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_hex_uq" ON "deposit_addresses" USING btree ("network","hex");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_log_uq" ON "deposits" USING btree ("network","tx_hash","log_index") WHERE "deposits"."log_index" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "deposits_to_address_idx" ON "deposits" USING btree ("network","to_address","decided_at") WHERE "deposits"."to_address" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_tx_uq" ON "deposits" USING btree ("tx_hash") WHERE "deposits"."status" <> 'declined' AND "deposits"."log_index" IS NULL;