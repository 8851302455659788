-- Trigram similarity for typo-tolerant search (servers_*_trgm_idx in the next migration).
-- pg_trgm is a trusted extension (Postgres 13+), so the database owner may create it;
-- embedded PGlite loads it in lib/db/client.ts. Neon provides it too.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
