import { sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { foldName, serverPartOf } from "@/lib/facts/fold-name";
import { SEARCH_CANDIDATES } from "@/lib/config";
import { sqlRows } from "@/lib/reports/sql-rows";
import { oneEditKeys, oneEditVariants } from "./edit-variants";
import { KNOWN_ECOSYSTEMS } from "@/lib/catalog/normalize-registry-entry";
import { queryArtifacts, unwrapQuery } from "./query-artifacts";
import { GENERIC_NAME_WORDS, SEARCH_KEY_ALPHABET, searchKey, searchKeySql } from "./search-key";

/**
 * Match tiers, best first. A higher tier always ranks above a lower one; within a tier the relevance
 * decides, and equal relevance (two decimals) is a tie that the trust score breaks.
 */
export const MATCH_TIERS = {
  /** The exact canonical name, case-sensitive. */
  exact_name: 3,
  /**
   * The name part equals the query after case, separator and homoglyph folding; or the whole name or the title does,
   * ignoring case; or the query is a package identifier, repository URL or remote URL the server's listing names.
   */
  exact_part_or_title: 2,
  /** The name part is one typo from the query, or similar to it (trigrams), or the owner, name part or title contain its words. */
  similar_name_or_title: 1,
  /** Only the description contains the query's words. */
  description: 0,
} as const;
export type MatchKind = keyof typeof MATCH_TIERS;
export const MATCH_KIND_BY_TIER = Object.fromEntries(Object.entries(MATCH_TIERS).map(([k, v]) => [v, k])) as Record<number, MatchKind>;

export interface SearchCandidate {
  name: string;
  tier: number;
  /** 0–1, two decimals. */
  relevance: number;
}

/**
 * Relevance of the other `exact_part_or_title` matches (the same name part or title): below the whole name
 * typed in another case, which is the one server a user named, above every similar name (a lower tier).
 */
const EXACT_PART_RELEVANCE = 0.99;
/** Relevance of a name part one edit away from the query (see oneEditKeys): a likely typo of that name. */
const ONE_EDIT_RELEVANCE = 0.9;
/**
 * Relevance of a server of the namespace the query names alone (`io.github.acme`, `com.acme/`): each is one the
 * user asked for, so they rank alike (their trust scores order them), above trigram lookalikes of the namespace's
 * words from other namespaces (`io.github.github/github-mcp-server` for any `io.github.*`).
 */
const NAMESPACE_RELEVANCE = 0.95;
/** Search keys (name part without generic words) up to this long also get one-edit name matches. */
const SHORT_KEY = 6;
/** Rows each name branch may contribute before ranking (by its own cheap order). */
const BRANCH_LIMIT = 200;

const GENERIC_WORDS = new RegExp(`\\b(${GENERIC_NAME_WORDS.join("|")})\\b`, "gi");

/**
 * The query's words for full-text matching (all of them must match: plainto_tsquery), punctuation and
 * generic name words dropped; "" when nothing is left.
 */
export function fullTextQuery(q: string): string {
  return q
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(GENERIC_WORDS, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The ranked candidates of one query, from Postgres full-text search and pg_trgm over listed servers (the
 * same SQL on PGlite and Postgres), in two steps:
 *
 * 1. name matches, each branch served by an index and bounded: the exact name (btree), the folded name
 *    part and its one-edit neighbours (btree on name_fold), the query's key against name parts' keys
 *    (trigram `%` on search_key), the query's words in owner, name part or title (name_tsv @@). Only these
 *    few hundred rows get the costlier relevance: the mean of similarity(name part, query) and
 *    word_similarity(query, name and title).
 * 2. description matches (search_tsv @@, ranked by ts_rank), only when step 1 leaves fewer than
 *    `wanted` results: a description match never outranks a name match.
 */
export async function findCandidates(db: Queryable, typed: string, wanted: number, max = SEARCH_CANDIDATES): Promise<SearchCandidate[]> {
  const q = unwrapQuery(typed);
  const part = q.includes("/") ? serverPartOf(q) : q;
  const fold = foldName(part);
  const lower = q.toLowerCase();
  const key = searchKey(part);
  const words = fullTextQuery(part);
  // description matching uses the whole query's words (a name's namespace is not in a description)
  const textWords = fullTextQuery(q);
  // a namespace typed alone, with or without its slash: its servers are name matches (the namespace is the first
  // part of their names), which neither the name part branches nor the words of name_tsv (the owner label, not
  // "io" or "github") find
  const namespace = /^[^/\s]+\.[^/\s]+\/?$/.test(q) ? q.replace(/\/$/, "").toLowerCase() : null;
  // Trigrams tolerate a typo in a long name but not in a short one ("auzre", "mny-mcp-server"), so the
  // one-edit neighbourhood of the folded name is probed only when the distinctive part is short.
  const short = key.replace(/ /g, "").length <= SHORT_KEY;
  const nearKeys = short ? oneEditKeys(part) : [];
  const near = new Set(nearKeys);
  // the same neighbourhood of the query's key, against search keys (a vendor server named by its owner:
  // "notoin" → com.notion/mcp, whose name part is only "mcp")
  const nearSearchKeys = short && /^[a-z0-9]+$/.test(key) ? oneEditVariants(key, SEARCH_KEY_ALPHABET) : [];
  const nearSearch = new Set(nearSearchKeys);
  // one `= any` over a Postgres array literal (a single parameter whatever the driver does with JS
  // arrays), so the planner probes the btree index instead of scanning
  const foldKeys = `{${[fold, ...nearKeys].map(arrayItem).join(",")}}`;

  // Each branch returns whole candidate rows (no join back to servers, whose size would tempt the
  // planner into a scan); union removes the duplicates.
  const cols = sql`s.id, s.name, s.namespace, s.name_fold, s.title, s.server_part, s.search_name, s.search_key, s.delisted_at`;
  const artifacts = queryArtifacts(q);
  const branches = [
    sql`select ${cols} from servers s where s.name = ${q}`,
    // the whole name in another case (expression index): the name part branch below stops at BRANCH_LIMIT rows
    // per key, and a generic part ("mcp") has more than that
    sql`select ${cols} from servers s where lower(s.name) = ${lower}`,
    // one btree probe per key: a lateral subquery cannot be hashed, so the planner neither scans the table
    // nor estimates an `= any(array)` of hundreds of keys element by element
    sql`select ${cols} from unnest(${foldKeys}::text[]) k cross join lateral (select * from servers where name_fold = k limit ${BRANCH_LIMIT}) s`,
    // the servers of a namespace typed alone (btree on lower(namespace))
    ...(namespace ? [sql`(select ${cols} from servers s where lower(s.namespace) = ${namespace} limit ${BRANCH_LIMIT})`] : []),
    ...(key.length >= 2
      ? [sql`(select ${cols} from servers s where s.search_key % ${key} order by similarity(s.search_key, ${key}) desc limit ${BRANCH_LIMIT})`]
      : []),
    ...(nearSearchKeys.length
      ? [
          sql`select ${cols} from unnest(${`{${[key, ...nearSearchKeys].map(arrayItem).join(",")}}`}::text[]) k
              cross join lateral (select * from servers where search_key = k limit ${BRANCH_LIMIT}) s`,
        ]
      : []),
    ...(artifacts ? [sql`select ${cols} from servers s where s.id in (select id from art)`] : []),
    ...(words
      ? [
          sql`(select ${cols} from servers s, plainto_tsquery('english', ${words}) tsq where s.name_tsv @@ tsq
               order by ts_rank(s.name_tsv, tsq) desc limit ${BRANCH_LIMIT})`,
        ]
      : []),
  ];
  const nameRows = await sqlRows<{ name: string; namespace: string; name_fold: string; search_key: string; artifact: boolean; tier: number; relevance: number }>(
    db,
    sql`
    ${artifacts ? sql`with art as (${artifactIds(artifacts)})` : sql``}
    select h.name, h.namespace, h.name_fold, h.search_key,
      ${artifacts ? sql`h.id in (select id from art)` : sql`false`} as artifact,
      case
        when h.name = ${q} then 3
        ${artifacts ? sql`when h.id in (select id from art) then 2` : sql``}
        when h.name_fold = ${fold} or lower(h.name) = ${lower} or lower(h.title) = ${lower} then 2
        -- a server named by its owner (a generic name part) whose owner is the query
        when h.search_key = ${key} and ${sql.raw(searchKeySql("h.server_part"))} = '' then 2
        else 1
      end as tier,
      (similarity(h.server_part, ${part}) + word_similarity(${q}, h.search_name)) / 2 as relevance
    from (${sql.join(branches, sql` union `)}) h
    where h.delisted_at is null`,
  );
  const out = nameRows
    .map((r) => {
      const tier = Number(r.tier);
      const oneEdit = near.has(r.name_fold) || nearSearch.has(r.search_key);
      // the artifact a listing names is the one server the user named, as the whole name in another case is
      const exact = tier === 3 || r.name.toLowerCase() === lower || r.artifact === true;
      const ofNamespace = namespace !== null && r.namespace.toLowerCase() === namespace;
      const relevance =
        tier >= 2
          ? exact
            ? 1
            : EXACT_PART_RELEVANCE
          : Math.max(Number(r.relevance), oneEdit ? ONE_EDIT_RELEVANCE : 0, ofNamespace ? NAMESPACE_RELEVANCE : 0);
      return { name: r.name, tier, relevance: Math.round(relevance * 100) / 100 };
    })
    .sort((a, b) => b.tier - a.tier || b.relevance - a.relevance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, max);
  if (out.length >= wanted || !textWords) return out;

  const seen = out.map((c) => c.name);
  const textRows = await sqlRows<{ name: string; relevance: string | number }>(
    db,
    sql`
    select s.name, round(ts_rank(${OWN_WORDS}, tsq, 32)::numeric, 2) as relevance
    from servers s, plainto_tsquery('english', ${textWords}) tsq
    where s.search_tsv @@ tsq and ${OWN_WORDS} @@ tsq and s.delisted_at is null
      ${seen.length ? sql`and s.name <> all(${`{${seen.map(arrayItem).join(",")}}`}::text[])` : sql``}
    order by relevance desc, s.name
    limit ${max - out.length}`,
  );
  return [...out, ...textRows.map((r) => ({ name: r.name, tier: 0, relevance: Number(r.relevance) }))];
}

/**
 * What a description match is made of: the description's words (search_tsv's weight B) and the owner, name part
 * and title (name_tsv). search_tsv, which the index probes, also holds the whole name, whose namespace words ("io",
 * "github", "com", "ai") are in nearly every name: on their own they made `github` match hundreds of io.github.*
 * servers as "description" matches whose descriptions never say it, ranked above those that do (weight A).
 * Computed only for the rows the index found.
 */
const OWN_WORDS = sql.raw(`(ts_filter(s.search_tsv, '{b}') || s.name_tsv)`);

/**
 * Ids of the servers whose listing (the latest version; any version of a server the catalog holds without one)
 * names the query's package identifier, repository URL or remote URL: exact probes of the (ecosystem,
 * identifier), repositories (url) and server_remotes (url) indexes, each bounded.
 */
function artifactIds(a: NonNullable<ReturnType<typeof queryArtifacts>>) {
  const listed = sql`(s.latest_version_id = v.id or s.latest_version_id is null) and s.delisted_at is null`;
  const parts = [
    sql`(select v.server_id as id from server_packages sp join server_versions v on v.id = sp.version_id join servers s on s.id = v.server_id
         where sp.ecosystem = any(${arrayLiteral(KNOWN_ECOSYSTEMS)}::text[]) and sp.identifier = any(${arrayLiteral(a.identifiers)}::text[]) and ${listed}
         limit ${BRANCH_LIMIT})`,
    ...(a.repositoryUrl
      ? [sql`(select s.id from repositories r join servers s on s.repository_id = r.id where r.url = ${a.repositoryUrl} and s.delisted_at is null limit ${BRANCH_LIMIT})`]
      : []),
    ...(a.remoteUrls.length
      ? [
          sql`(select v.server_id as id from server_remotes sr join server_versions v on v.id = sr.version_id join servers s on s.id = v.server_id
               where sr.url = any(${arrayLiteral(a.remoteUrls)}::text[]) and ${listed} limit ${BRANCH_LIMIT})`,
        ]
      : []),
  ];
  return sql.join(parts, sql` union `);
}

const arrayLiteral = (items: readonly string[]) => `{${items.map(arrayItem).join(",")}}`;

/** One element of a Postgres array literal, quoted. */
const arrayItem = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
