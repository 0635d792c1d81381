CREATE TABLE "account_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cause_key" text NOT NULL,
	"user_id" text,
	"to_address" text NOT NULL,
	"template" text NOT NULL,
	"data" jsonb,
	"subject" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "mailed" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_tokens_user_idx" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_cause_uq" ON "mail_outbox" USING btree ("cause_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."sent_at" IS NULL;--> statement-breakpoint
-- The admins' addresses are the operator's own (ADMIN_EMAIL): taken as confirmed. Members confirm
-- theirs through the link a sign-up (or "send again") mails.
UPDATE "users" SET "email_verified_at" = now() WHERE "role" = 'admin';--> statement-breakpoint
-- A notification of a kind the member chose to receive by mail too (notification_settings.mailed)
-- queues that mail in the transaction that writes it: no statement that notifies has to know.
-- One row per notification (cause_key), sent by the mailers like every other mail.
CREATE OR REPLACE FUNCTION mail_mailed_notification() RETURNS trigger AS $$
BEGIN
  INSERT INTO mail_outbox (cause_key, user_id, to_address, template, data)
  SELECT 'notification:' || NEW.id, u.id, u.email, 'notification', jsonb_build_object('kind', NEW.kind, 'text', NEW.text, 'name', u.name)
  FROM notification_settings s JOIN users u ON u.id = s.user_id
  WHERE s.user_id = NEW.user_id AND NEW.kind = ANY (s.mailed) AND u.deleted_at IS NULL
  ON CONFLICT (cause_key) DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER notifications_mailed
  AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION mail_mailed_notification();
