ALTER TABLE "watches" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watches" ADD COLUMN "email_confirm_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "watches_email_confirm_token_idx" ON "watches" USING btree ("email_confirm_token");--> statement-breakpoint
-- Watches made before addresses had to confirm keep sending: their owners chose them under the old rule.
UPDATE "watches" SET "email_confirmed_at" = "created_at" WHERE "email" IS NOT NULL;
