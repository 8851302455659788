DROP INDEX "servers_search_key_trgm_idx";--> statement-breakpoint
DROP INDEX "servers_name_tsv_idx";--> statement-breakpoint
DROP INDEX "servers_search_tsv_idx";--> statement-breakpoint
CREATE INDEX "servers_repository_idx" ON "servers" USING btree ("repository_id");--> statement-breakpoint
CREATE INDEX "servers_search_key_trgm_idx" ON "servers" USING gin ("search_key" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "servers_name_tsv_idx" ON "servers" USING gin ("name_tsv") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "servers_search_tsv_idx" ON "servers" USING gin ("search_tsv") WITH (fastupdate=false);