-- Upstream times more than a day after our own reading are unknown (believableTime, lib/sources/upstream-time.ts).
-- Rows harvested before GitHub and OSV times followed that rule keep what the upstream said; this applies the rule
-- once to what is stored. A repository's ETag goes too: on the REST path a 304 keeps the stored row, so without a
-- full answer its last push would stay unknown until the repository changed.
UPDATE "repository_observations" SET "pushed_at" = NULL, "etag" = NULL WHERE "pushed_at" > "observed_at" + interval '1 day';
--> statement-breakpoint
-- A `modified` that is unknown is older than any real one, so the next batch answer fetches the advisory again.
UPDATE "osv_advisories" SET "modified" = NULL WHERE "modified" > "fetched_at" + interval '1 day';
--> statement-breakpoint
UPDATE "osv_advisories" SET "withdrawn" = NULL WHERE "withdrawn" > "fetched_at" + interval '1 day';
