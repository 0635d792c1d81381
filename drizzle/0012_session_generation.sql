ALTER TABLE "users" ADD COLUMN "session_generation" text;--> statement-breakpoint
-- The generations kept until now as settings rows ('session_generation:<user id>') move onto their users.
UPDATE "users" SET "session_generation" = s."value" FROM "settings" s WHERE s."key" = 'session_generation:' || "users"."id";--> statement-breakpoint
DELETE FROM "settings" WHERE "key" LIKE 'session\_generation:%';
