CREATE TABLE "changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"server_id" bigint NOT NULL,
	"server_name" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "harvest_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"holder" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb,
	"calls" jsonb,
	"stopped" jsonb,
	"errors" jsonb,
	"changes" jsonb
);
--> statement-breakpoint
CREATE TABLE "source_cooldowns" (
	"source" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "osv_advisories" (
	"id" text PRIMARY KEY NOT NULL,
	"modified" timestamp with time zone,
	"summary" text,
	"severity" text,
	"aliases" jsonb,
	"withdrawn" timestamp with time zone,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vuln_observations" (
	"ecosystem" text NOT NULL,
	"identifier" text NOT NULL,
	"listed_version" text NOT NULL,
	"queried_version" text,
	"advisories" jsonb,
	"observed_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "vuln_observations_ecosystem_identifier_listed_version_pk" PRIMARY KEY("ecosystem","identifier","listed_version")
);
--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "changes_server_idx" ON "changes" USING btree ("server_id","id");--> statement-breakpoint
CREATE INDEX "harvest_runs_started_idx" ON "harvest_runs" USING btree ("started_at");