-- Look-ups are read per listed version from vuln_observations; package_observations only mirrored one
-- version of each package. Any mirrored look-up without its per-version row is kept there before the
-- mirror goes (the version it answered for, or for an unpinned listing the latest version of the time).
INSERT INTO "vuln_observations" ("ecosystem", "identifier", "listed_version", "queried_version", "advisories", "observed_at", "attempted_at", "last_error")
SELECT "ecosystem", "identifier", coalesce("advisories_version", ''), coalesce("advisories_version", "latest_version"),
       "advisories", "advisories_observed_at", "advisories_attempted_at", "advisories_error"
FROM "package_observations"
WHERE "advisories" IS NOT NULL OR "advisories_attempted_at" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "package_observations" DROP COLUMN "advisories";--> statement-breakpoint
ALTER TABLE "package_observations" DROP COLUMN "advisories_version";--> statement-breakpoint
ALTER TABLE "package_observations" DROP COLUMN "advisories_observed_at";--> statement-breakpoint
ALTER TABLE "package_observations" DROP COLUMN "advisories_attempted_at";--> statement-breakpoint
ALTER TABLE "package_observations" DROP COLUMN "advisories_error";