import { sql } from "drizzle-orm";
import { bigserial, bigint, customType, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { foldNameSql } from "../../facts/fold-name";
import { OWNER_LABEL_SQL, SERVER_SEARCH_KEY_SQL } from "../../search/search-key";
import { tstz, createdAt } from "./columns";
import { repositories } from "./repositories";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * One row per canonical server name. The descriptive columns mirror the latest
 * version so the read paths (search, card, preflight) need no join to find it.
 */
export const servers = pgTable(
  "servers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    namespace: text("namespace").notNull(),
    /** The part after the first "/", used by lookalike detection. */
    serverPart: text("server_part").notNull(),
    title: text("title"),
    description: text("description"),
    websiteUrl: text("website_url"),
    latestVersion: text("latest_version"),
    latestVersionId: bigint("latest_version_id", { mode: "number" }),
    /** As the registry last reported it (active, deprecated, deleted, …); null when it did not say. */
    registryStatus: text("registry_status"),
    statusMessage: text("status_message"),
    statusChangedAt: tstz("status_changed_at"),
    /** The server.json schema date of the latest version, e.g. "2025-09-29". */
    specEra: text("spec_era"),
    repositoryId: bigint("repository_id", { mode: "number" }).references(() => repositories.id),
    publishedAt: tstz("published_at"),
    registryUpdatedAt: tstz("registry_updated_at"),
    firstSeenAt: tstz("first_seen_at").notNull(),
    /** Set when a complete listing no longer contained the name; cleared when it returns. */
    delistedAt: tstz("delisted_at"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
    /** Lookalike key of the server part: case, homoglyphs and separators folded (lib/facts/fold-name.ts). */
    nameFold: text("name_fold")
      .notNull()
      .generatedAlwaysAs(sql.raw(foldNameSql("server_part"))),
    /** Name and title as one string: search ranks candidates by the query's word similarity to it. */
    searchName: text("search_name")
      .notNull()
      .generatedAlwaysAs(sql`name || ' ' || coalesce(title, '')`),
    /**
     * The name part without generic words (mcp, server), or the owner label when nothing else is left: what
     * search compares a query's key with, by trigrams and one edit (lib/search/search-key.ts).
     */
    searchKey: text("search_key")
      .notNull()
      .generatedAlwaysAs(sql.raw(SERVER_SEARCH_KEY_SQL)),
    /** Full-text vector of the owner label, name part and title: the words a name match is made of. */
    nameTsv: tsvector("name_tsv")
      .notNull()
      .generatedAlwaysAs(
        sql.raw(`to_tsvector('english', ${OWNER_LABEL_SQL} || ' ' || regexp_replace(server_part, '[-_.]+', ' ', 'g') || ' ' || coalesce(title, ''))`),
      ),
    /** Full-text vector: name words and title weigh A, description B (english stemming). */
    searchTsv: tsvector("search_tsv")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', regexp_replace(name || ' ' || coalesce(title, ''), '[-_./]+', ' ', 'g')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')`,
      ),
  },
  (t) => [
    // exact-name lookups (preflight, card, badge) are case-sensitive
    uniqueIndex("servers_name_uq").on(t.name),
    // search: the whole name typed in another case
    index("servers_name_lower_idx").on(sql`lower(${t.name})`),
    // search: the servers of a namespace typed alone (`io.github.acme`), in any case
    index("servers_namespace_lower_idx").on(sql`lower(${t.namespace})`),
    // lookalikes: same server part under another namespace
    index("servers_server_part_idx").on(t.serverPart),
    // recent: newest first
    index("servers_first_seen_idx").on(t.firstSeenAt),
    // lookalikes and search: names equal after case, homoglyph and separator folding
    index("servers_name_fold_idx").on(t.nameFold),
    // the harvester's "repositories of listed servers" (an EXISTS per repository): without it a misestimated
    // join turns into a scan of every server for every repository
    index("servers_repository_idx").on(t.repositoryId),
    // the harvester's described versions (lib/facts/described-version.ts): the few servers the catalog holds
    // without a latest version, found without a second scan of every server per due-item query
    index("servers_without_latest_idx").on(t.id).where(sql`${t.latestVersionId} is null`),
    // The search indexes are GIN without fastupdate: with it, rows written since the last vacuum sit in a
    // pending list that every search scans in full (after an ingest of 20,000 servers on a server whose
    // autovacuum is off or behind: 9,000 tuples, 2 ms per search and index). Catalog writes are batched
    // and rare, so paying the index update at write time is the cheaper side.
    // search: typo-tolerant match of the query's key against name parts' keys (similarity, `%`)
    index("servers_search_key_trgm_idx").using("gin", t.searchKey.op("gin_trgm_ops")).with({ fastupdate: false }),
    // search: a short query's one-edit neighbours probed as whole keys
    index("servers_search_key_idx").on(t.searchKey),
    // search: the query's words in the owner, name part or title
    index("servers_name_tsv_idx").using("gin", t.nameTsv).with({ fastupdate: false }),
    // search: the query's words in the description (when names and titles give too few results)
    index("servers_search_tsv_idx").using("gin", t.searchTsv).with({ fastupdate: false }),
  ],
);

export type ServerRow = typeof servers.$inferSelect;
