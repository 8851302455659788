-- Upstream times before year 1000 name no event (parseUpstreamTime, lib/sources/upstream-time.ts): the registry
-- writes Go's zero time, 0001-01-01T00:00:00Z, for "unset". Rows written before that rule hold it as a time in
-- year 1 (drizzle even reads it back as 2001), and a server's first_seen_at, the earliest publication of its
-- versions, became year 1 with it: /v1/recent put such servers last and their cards said year 1. This applies the
-- rule once to what is stored. A version's unset times come first, so first_seen_at is recomputed without them.
UPDATE "server_versions" SET
  "published_at" = CASE WHEN "published_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "published_at" END,
  "registry_updated_at" = CASE WHEN "registry_updated_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "registry_updated_at" END,
  "status_changed_at" = CASE WHEN "status_changed_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "status_changed_at" END
WHERE least("published_at", "registry_updated_at", "status_changed_at") < '1000-01-01T00:00:00Z';
--> statement-breakpoint
-- first_seen_at is recomputed as ingest sets it (lib/catalog/ingest-entries.ts): the earliest of the publications of
-- every version listed and of the observation of the listing that first held the server. The versions are all kept
-- with their publications; that listing's observation is the server_new change it wrote. A server stored before
-- listings wrote change records has only its row's created_at, when the catalog stored it: no earlier than that
-- listing's observation, so at worst the server reads as first seen a little late, never in year 1 and never
-- before any evidence of it. The column is NOT NULL and created_at always holds a time, so every row ends real.
-- A first_seen_at that is a real time is left alone: it never moves later.
UPDATE "servers" AS s SET
  "first_seen_at" = least(
    (SELECT min(v."published_at") FROM "server_versions" v WHERE v."server_id" = s."id"),
    coalesce((SELECT min(c."observed_at") FROM "changes" c WHERE c."server_id" = s."id" AND c."kind" = 'server_new'), s."created_at")
  ),
  "updated_at" = now()
WHERE s."first_seen_at" < '1000-01-01T00:00:00Z';
--> statement-breakpoint
UPDATE "servers" SET
  "published_at" = CASE WHEN "published_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "published_at" END,
  "registry_updated_at" = CASE WHEN "registry_updated_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "registry_updated_at" END,
  "status_changed_at" = CASE WHEN "status_changed_at" < '1000-01-01T00:00:00Z' THEN NULL ELSE "status_changed_at" END,
  "updated_at" = now()
WHERE least("published_at", "registry_updated_at", "status_changed_at") < '1000-01-01T00:00:00Z';
--> statement-breakpoint
-- GitHub's and OSV's times went through the same reader (before it, `new Date`, which took year 1 too). A push
-- that is unknown drops its ETag, as in 0017: a 304 would otherwise keep it unknown until the repository changed.
UPDATE "repository_observations" SET "pushed_at" = NULL, "etag" = NULL WHERE "pushed_at" < '1000-01-01T00:00:00Z';
--> statement-breakpoint
UPDATE "osv_advisories" SET "modified" = NULL WHERE "modified" < '1000-01-01T00:00:00Z';
--> statement-breakpoint
UPDATE "osv_advisories" SET "withdrawn" = NULL WHERE "withdrawn" < '1000-01-01T00:00:00Z';
