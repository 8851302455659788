-- The search key falls back to the owner label when the name part is only generic words. Dropping the
-- generated column drops its trigram index with it, so that index is built again here.
ALTER TABLE "servers" drop column "search_key";--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "search_key" text GENERATED ALWAYS AS (coalesce(nullif(btrim(regexp_replace(regexp_replace(regexp_replace(lower(server_part), '[^a-z0-9]+', ' ', 'g'), '\m(mcp|server|servers)\M', ' ', 'g'), '\s+', ' ', 'g')), ''), btrim(regexp_replace(regexp_replace(regexp_replace(lower((case when namespace like 'io.github.%' then substr(namespace, 11) else split_part(namespace, '.', 2) end)), '[^a-z0-9]+', ' ', 'g'), '\m(mcp|server|servers)\M', ' ', 'g'), '\s+', ' ', 'g')))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "servers_search_key_idx" ON "servers" USING btree ("search_key");--> statement-breakpoint
CREATE INDEX "servers_search_key_trgm_idx" ON "servers" USING gin ("search_key" gin_trgm_ops) WITH (fastupdate=false);
