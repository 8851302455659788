CREATE TABLE "watches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text,
	"server_id" bigint NOT NULL,
	"server_name" text NOT NULL,
	"webhook_url" text,
	"email" text,
	"target_key" text NOT NULL,
	"events" text[] NOT NULL,
	"label" text,
	"secret" text NOT NULL,
	"unsubscribe_token" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "watch_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"watch_id" text NOT NULL,
	"channel" text NOT NULL,
	"change_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "watch_delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"ok" boolean NOT NULL,
	"status_code" integer,
	"error" text,
	"response" text
);
--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_deliveries" ADD CONSTRAINT "watch_deliveries_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_deliveries" ADD CONSTRAINT "watch_deliveries_change_id_changes_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."changes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_delivery_attempts" ADD CONSTRAINT "watch_delivery_attempts_delivery_id_watch_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."watch_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watches_active_target_idx" ON "watches" USING btree ("account_id","server_id","target_key") WHERE "watches"."status" = 'active';--> statement-breakpoint
CREATE INDEX "watches_active_server_idx" ON "watches" USING btree ("server_id") WHERE "watches"."status" = 'active';--> statement-breakpoint
CREATE INDEX "watches_account_idx" ON "watches" USING btree ("account_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "watches_unsubscribe_token_idx" ON "watches" USING btree ("unsubscribe_token");--> statement-breakpoint
CREATE UNIQUE INDEX "watch_deliveries_event_channel_idx" ON "watch_deliveries" USING btree ("event_id","channel");--> statement-breakpoint
CREATE INDEX "watch_deliveries_pending_lane_idx" ON "watch_deliveries" USING btree ("watch_id","channel","id") WHERE "watch_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "watch_deliveries_pending_due_idx" ON "watch_deliveries" USING btree ("next_attempt_at") WHERE "watch_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "watch_deliveries_watch_idx" ON "watch_deliveries" USING btree ("watch_id","id");--> statement-breakpoint
CREATE INDEX "watch_delivery_attempts_delivery_idx" ON "watch_delivery_attempts" USING btree ("delivery_id","attempt");