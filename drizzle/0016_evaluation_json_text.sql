-- Facts, reasons and limitations are kept as the JSON text the engine wrote, not jsonb (lib/db/schema/evaluations.ts):
-- one rewrite of the table; rows written before keep jsonb's text of the same JSON, which reads back the same.
ALTER TABLE "evaluations" ALTER COLUMN "facts" SET DATA TYPE text USING "facts"::text, ALTER COLUMN "reasons" SET DATA TYPE text USING "reasons"::text, ALTER COLUMN "limitations" SET DATA TYPE text USING "limitations"::text;
