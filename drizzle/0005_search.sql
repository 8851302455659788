ALTER TABLE "servers" ADD COLUMN "name_fold" text GENERATED ALWAYS AS (regexp_replace(replace(replace(translate(lower(server_part), '01i|!асԁеёһіӏјорԛѕухԝαικνορυχ', 'ollllacdeehlljopqsyxwalkvopux'), 'rn', 'm'), 'vv', 'w'), '[-_.[:space:]]+', '', 'g')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "search_name" text GENERATED ALWAYS AS (name || ' ' || coalesce(title, '')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', regexp_replace(name || ' ' || coalesce(title, ''), '[-_./]+', ' ', 'g')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "servers_name_fold_idx" ON "servers" USING btree ("name_fold");--> statement-breakpoint
CREATE INDEX "servers_server_part_trgm_idx" ON "servers" USING gin ("server_part" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "servers_search_name_trgm_idx" ON "servers" USING gin ("search_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "servers_search_tsv_idx" ON "servers" USING gin ("search_tsv");