DROP INDEX "servers_server_part_trgm_idx";--> statement-breakpoint
DROP INDEX "servers_search_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "search_key" text GENERATED ALWAYS AS (btrim(regexp_replace(regexp_replace(regexp_replace(lower(server_part), '[^a-z0-9]+', ' ', 'g'), '\m(mcp|server|servers)\M', ' ', 'g'), '\s+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "name_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', case when namespace like 'io.github.%' then substr(namespace, 11) else split_part(namespace, '.', 2) end || ' ' || regexp_replace(server_part, '[-_.]+', ' ', 'g') || ' ' || coalesce(title, ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "servers_search_key_trgm_idx" ON "servers" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "servers_name_tsv_idx" ON "servers" USING gin ("name_tsv");