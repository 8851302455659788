import { isNull, and, eq, ne } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { repositories, servers } from "@/lib/db/schema";
import type { BrandClaim } from "@/lib/engine/facts";
import { COMMON_WORD_TOKENS, GENERIC_TOKENS, REVIEWED_BRANDS, type Brand } from "./brands";
import { namespaceVerification } from "./derive-identity";
import { foldHomoglyphs } from "./fold-name";
import { createDbMemo } from "@/lib/cache/db-memo";

// The derived list reads every listed namespace (40 ms over 20,000 servers), so it is kept ten minutes per
// database, computed once for all the requests that need it meanwhile, and recomputed after a catalog write.
const brandsMemo = createDbMemo(() => 10 * 60_000, 4);

/** Splits a name or title into lower-case words: "Stripe-MCP server" → ["stripe", "mcp", "server"]. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Brands: the reviewed list plus one brand per verified DNS namespace in the
 * catalog (com.acme → "acme", verified by com.acme and its subdomains), so a
 * company that publishes under its own domain is protected without review.
 */
export function loadBrands(db: Queryable): Promise<Brand[]> {
  return brandsMemo.get(db, "brands", () => deriveBrands(db));
}

async function deriveBrands(db: Queryable): Promise<Brand[]> {
  const rows = await db
    .selectDistinct({ namespace: servers.namespace, host: repositories.host, owner: repositories.owner })
    .from(servers)
    .leftJoin(repositories, eq(repositories.id, servers.repositoryId))
    .where(and(isNull(servers.delistedAt), ne(servers.namespace, "")));
  return derivedBrands(rows);
}

/**
 * The brand list from the catalog's listed namespaces (and the repositories their servers name). One brand per
 * label, whatever the top-level domain: ai.alpic and live.alpic are both DNS-verified "alpic" domains, so each
 * verifies the brand (keeping only the first one read made the other's own servers claims, and which one came
 * first was the database's row order).
 */
export function derivedBrands(rows: Array<{ namespace: string; host: string | null; owner: string | null }>): Brand[] {
  const reviewed = new Set(REVIEWED_BRANDS.flatMap((b) => b.tokens));
  const byLabel = new Map<string, { namespaces: Set<string>; owners: Set<string> }>();
  for (const { namespace, host, owner } of rows) {
    if (namespaceVerification(namespace) !== "dns") continue;
    const labels = namespace.toLowerCase().split(".");
    const label = labels[1];
    if (!label || label.length < 4 || GENERIC_TOKENS.has(label) || reviewed.has(label)) continue;
    let brand = byLabel.get(label);
    if (!brand) byLabel.set(label, (brand = { namespaces: new Set(), owners: new Set() }));
    brand.namespaces.add(labels.slice(0, 2).join("."));
    if (host === "github.com" && owner) brand.owners.add(owner.toLowerCase());
  }
  const derived = [...byLabel]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, b]) => ({ brand: label, tokens: [label], namespaces: [...b.namespaces].sort(), githubOwners: [...b.owners].sort() }));
  return [...REVIEWED_BRANDS, ...derived];
}

function ownsNamespace(brand: Brand, namespace: string): boolean {
  const ns = namespace.toLowerCase();
  if (brand.namespaces.some((owned) => ns === owned || ns.startsWith(`${owned}.`))) return true;
  return namespaceVerification(namespace) === "github" && (brand.githubOwners ?? []).includes(ns.slice("io.github.".length));
}

/**
 * What a person reads in a text: compatibility forms folded (fullwidth `Ｓｔｒｉｐｅ` is `Stripe`), accents and
 * other combining marks dropped (`Strípe`), invisible format characters removed (a zero-width space or joiner,
 * a soft hyphen inside `Str\u200Bipe`).
 */
export function visibleText(text: string): string {
  return text.normalize("NFKC").normalize("NFD").replace(/\p{M}+/gu, "").replace(/\p{Cf}+/gu, "");
}

/** `GitHubMCP` → `Git Hub MCP`, `XcodeBuildMCP` → `Xcode Build MCP`: the words a capitalised run glues together. */
const splitCamel = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z][a-z])/g, "$1 $2");

/**
 * The readings of a text, each as its folded words. `!` and `|` read as `l` inside a word (`s|ack`) but end one in
 * prose (`Stripe!`, `Slack|Notion`), so a text holding them is read both ways; a text with capitals inside a word
 * is read whole (`PayPal`) and split at them (`StripeMCP`).
 */
function readings(text: string): string[][] {
  const visible = visibleText(text);
  const texts = /[!|]/.test(visible) ? [visible, visible.replace(/[!|]/g, " ")] : [visible];
  const out: string[][] = [];
  for (const t of texts) {
    for (const r of new Set([t, splitCamel(t)])) {
      out.push(
        foldHomoglyphs(r)
          .split(/[^a-z0-9]+/)
          .filter(Boolean),
      );
    }
  }
  return out;
}

/** A word with `mcp` glued on (`stripemcp`, `mcpslack`) also says the word without it. */
function withoutMcp(word: string): string | null {
  if (word.length <= 6) return null;
  if (word.endsWith("mcp")) return word.slice(0, -3);
  if (word.startsWith("mcp")) return word.slice(3);
  return null;
}

/** The words of one reading that could name a brand: each word, each word without a glued `mcp`, each neighbouring pair joined (`git-hub`, `Open AI`). */
function candidates(ws: string[]): Set<string> {
  const out = new Set<string>();
  for (const w of ws) {
    out.add(w);
    const bare = withoutMcp(w);
    if (bare) out.add(bare);
  }
  for (let i = 0; i + 1 < ws.length; i++) out.add(ws[i] + ws[i + 1]);
  return out;
}

/**
 * The words a text says, folded like lookalike names (lib/facts/fold-name.ts) so that `str1pe`, `sIack` or a
 * Cyrillic `і` still say the brand, over every reading (above).
 */
export function claimedTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const ws of readings(text)) for (const w of candidates(ws)) out.add(w);
  return out;
}

const foldedSet = (words: Iterable<string>) => new Set([...words].map(foldHomoglyphs));
/** Words beside which a common-word brand token still names the brand (`Linear MCP server`, `monday.com`). */
const BESIDE_A_BRAND = foldedSet([...GENERIC_TOKENS, "com", "official"]);
const COMMON_WORDS = foldedSet(COMMON_WORD_TOKENS);

/** The brand tokens (folded) a text says; a common-word token only when the text names nothing else. */
function saidTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const ws of readings(text)) {
    for (const w of candidates(ws)) {
      if (COMMON_WORDS.has(w) && !ws.every((x) => x === w || withoutMcp(x) === w || BESIDE_A_BRAND.has(x))) continue;
      out.add(w);
    }
  }
  return out;
}

const OFFICIAL = foldHomoglyphs("official");
/** Words before "official" that deny it: "not official", "non-official", "not an official", "isn't official". */
const NEGATIONS = foldedSet(["not", "non", "no", "never", "t"]);
const ARTICLES = foldedSet(["a", "an", "the"]);
/** What an "official" in a description can qualify: the listing itself, or something else it merely uses. */
const SELF_HEADS = foldedSet(["server", "servers", "integration", "connector", "plugin", "extension", "app"]);
const OTHER_HEADS = foldedSet([
  "api", "apis", "sdk", "sdks", "docs", "documentation", "library", "libraries", "registry", "source", "sources",
  "schema", "spec", "specification", "client", "cli", "data", "filings", "package", "packages", "repository",
  "website", "site", "image", "images", "release", "releases", "endpoint", "endpoints", "guidelines",
]);

/**
 * Whether a text presents the listing as official. Negated "official" never does (`Unofficial`, `non-official`,
 * `not an official`). In a description, "official" must qualify the server itself (`Official Egnyte MCP
 * Server`), not what it is built on (`built on the official MCP TypeScript SDK`, `official SEC filings`): the
 * first head noun of the next five words decides, and none found is no claim. In a title or name part every
 * "official" counts.
 */
export function saysOfficial(text: string, kind: "name" | "description"): boolean {
  const ws = foldHomoglyphs(visibleText(text))
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (let i = 0; i < ws.length; i++) {
    if (ws[i] !== OFFICIAL) continue;
    const before = ARTICLES.has(ws[i - 1] ?? "") ? ws[i - 2] : ws[i - 1];
    if (before && NEGATIONS.has(before)) continue;
    if (kind === "name") return true;
    const head = ws.slice(i + 1, i + 6).find((w) => SELF_HEADS.has(w) || OTHER_HEADS.has(w));
    if (head && SELF_HEADS.has(head)) return true;
  }
  return false;
}

const tokenIndexes = new WeakMap<Brand[], Map<string, Brand[]>>();

/** Folded brand token → brands, built once per brand list (claimsOf runs for every server of a card list). */
function tokenIndex(brands: Brand[]): Map<string, Brand[]> {
  let index = tokenIndexes.get(brands);
  if (!index) {
    index = new Map();
    for (const b of brands) {
      for (const t of new Set(b.tokens.map(foldHomoglyphs))) {
        const list = index.get(t);
        if (list) list.push(b);
        else index.set(t, [b]);
      }
    }
    tokenIndexes.set(brands, index);
  }
  return index;
}

/**
 * The brands a listing's name part or title uses. A claim from a namespace the
 * brand does not own is unverified; one that also calls itself "official" is
 * impersonation.
 */
export function claimsOf(brands: Brand[], listing: { name: string; namespace: string; title: string | null; description?: string | null }): BrandClaim[] {
  const serverPart = listing.name.slice(listing.name.indexOf("/") + 1);
  const said = new Set([...saidTokens(serverPart), ...saidTokens(listing.title ?? "")]);
  const official = saysOfficial(`${serverPart} ${listing.title ?? ""}`, "name") || saysOfficial(listing.description ?? "", "description");
  const byToken = tokenIndex(brands);
  const claimed = new Set<Brand>();
  for (const w of said) for (const b of byToken.get(w) ?? []) claimed.add(b);
  const claims: BrandClaim[] = [];
  for (const b of brands) {
    if (!claimed.has(b)) continue;
    const verified = ownsNamespace(b, listing.namespace);
    claims.push({ brand: b.brand, verified_by_namespace: verified, impersonation: !verified && official });
  }
  // by UTF-16 code units, as RFC 8785 orders keys: localeCompare follows the machine's locale (Danish sorts "aa"
  // after "z"), and the claims are facts, so their order is in the facts digest, which must be the same everywhere
  return claims.sort((a, b) => (a.brand < b.brand ? -1 : a.brand > b.brand ? 1 : 0));
}

export async function findBrandClaims(db: Queryable, listing: { name: string; namespace: string; title: string | null; description?: string | null }) {
  return claimsOf(await loadBrands(db), listing);
}
