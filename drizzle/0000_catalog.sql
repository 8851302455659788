CREATE TABLE "servers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"namespace" text NOT NULL,
	"server_part" text NOT NULL,
	"title" text,
	"description" text,
	"website_url" text,
	"latest_version" text,
	"latest_version_id" bigint,
	"registry_status" text,
	"status_message" text,
	"status_changed_at" timestamp with time zone,
	"spec_era" text,
	"repository_id" bigint,
	"published_at" timestamp with time zone,
	"registry_updated_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"delisted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"server_id" bigint NOT NULL,
	"version" text NOT NULL,
	"is_latest" boolean NOT NULL,
	"status" text,
	"status_message" text,
	"status_changed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"registry_updated_at" timestamp with time zone,
	"schema_url" text,
	"repository_url" text,
	"document" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_packages" (
	"version_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"ecosystem" text NOT NULL,
	"registry_type" text NOT NULL,
	"registry_base_url" text,
	"identifier" text NOT NULL,
	"version" text,
	"runtime_hint" text,
	"transport_type" text,
	CONSTRAINT "server_packages_version_id_position_pk" PRIMARY KEY("version_id","position")
);
--> statement-breakpoint
CREATE TABLE "server_remotes" (
	"version_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "server_remotes_version_id_position_pk" PRIMARY KEY("version_id","position")
);
--> statement-breakpoint
CREATE TABLE "repositories" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"source" text,
	"host" text,
	"owner" text,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_syncs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"origin" text NOT NULL,
	"complete" boolean NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"observed_at" timestamp with time zone,
	"updated_since" timestamp with time zone,
	"entries" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"counts" jsonb,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_versions" ADD CONSTRAINT "server_versions_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_packages" ADD CONSTRAINT "server_packages_version_id_server_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."server_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_remotes" ADD CONSTRAINT "server_remotes_version_id_server_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."server_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "servers_name_uq" ON "servers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "servers_server_part_idx" ON "servers" USING btree ("server_part");--> statement-breakpoint
CREATE INDEX "servers_first_seen_idx" ON "servers" USING btree ("first_seen_at");--> statement-breakpoint
CREATE UNIQUE INDEX "server_versions_server_version_uq" ON "server_versions" USING btree ("server_id","version");--> statement-breakpoint
CREATE INDEX "server_versions_latest_idx" ON "server_versions" USING btree ("server_id") WHERE "server_versions"."is_latest";--> statement-breakpoint
CREATE INDEX "server_packages_identifier_idx" ON "server_packages" USING btree ("ecosystem","identifier");--> statement-breakpoint
CREATE INDEX "server_remotes_url_idx" ON "server_remotes" USING btree ("url");--> statement-breakpoint
CREATE UNIQUE INDEX "repositories_url_uq" ON "repositories" USING btree ("url");--> statement-breakpoint
CREATE INDEX "repositories_host_idx" ON "repositories" USING btree ("host");