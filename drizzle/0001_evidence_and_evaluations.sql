CREATE TABLE "repository_observations" (
	"repository_id" bigint PRIMARY KEY NOT NULL,
	"exists" boolean,
	"http_status" integer,
	"archived" boolean,
	"disabled" boolean,
	"fork" boolean,
	"pushed_at" timestamp with time zone,
	"stars" integer,
	"owner_login" text,
	"owner_type" text,
	"renamed_to" text,
	"host_repo_id" text,
	"etag" text,
	"observed_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "package_observations" (
	"ecosystem" text NOT NULL,
	"identifier" text NOT NULL,
	"exists" boolean,
	"unpublished" boolean,
	"latest_version" text,
	"versions" jsonb,
	"deprecated" text,
	"etag" text,
	"observed_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"last_error" text,
	"advisories" jsonb,
	"advisories_version" text,
	"advisories_observed_at" timestamp with time zone,
	"advisories_attempted_at" timestamp with time zone,
	"advisories_error" text,
	CONSTRAINT "package_observations_ecosystem_identifier_pk" PRIMARY KEY("ecosystem","identifier")
);
--> statement-breakpoint
CREATE TABLE "remote_observations" (
	"url" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"live" boolean,
	"http_status" integer,
	"tools_hash" text,
	"tools_count" integer,
	"server_info" text,
	"protocol_version" text,
	"auth_required" boolean,
	"observed_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text,
	"server_name" text NOT NULL,
	"policy_id" text NOT NULL,
	"policy_revision" integer NOT NULL,
	"decision" text NOT NULL,
	"facts" jsonb NOT NULL,
	"reasons" jsonb NOT NULL,
	"limitations" jsonb NOT NULL,
	"facts_digest" text NOT NULL,
	"policy_digest" text NOT NULL,
	"decision_input_digest" text NOT NULL,
	"engine_version" text NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repository_observations" ADD CONSTRAINT "repository_observations_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluations_account_idx" ON "evaluations" USING btree ("account_id","evaluated_at");--> statement-breakpoint
CREATE INDEX "evaluations_completed_idx" ON "evaluations" USING btree ("completed_at");