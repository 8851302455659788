import { isNull, and, ne } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import type { BrandClaim } from "@/lib/engine/facts";
import { GENERIC_TOKENS, REVIEWED_BRANDS, type Brand } from "./brands";
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
  const rows = await db.selectDistinct({ namespace: servers.namespace }).from(servers).where(and(isNull(servers.delistedAt), ne(servers.namespace, "")));
  const byToken = new Map<string, Brand>();
  for (const b of REVIEWED_BRANDS) for (const t of b.tokens) byToken.set(t, b);
  const derived: Brand[] = [];
  for (const { namespace } of rows) {
    if (namespaceVerification(namespace) !== "dns") continue;
    const label = namespace.toLowerCase().split(".")[1];
    if (!label || label.length < 4 || GENERIC_TOKENS.has(label) || byToken.has(label)) continue;
    const brand: Brand = { brand: label, tokens: [label], namespaces: [namespace.split(".").slice(0, 2).join(".").toLowerCase()] };
    byToken.set(label, brand);
    derived.push(brand);
  }
  return [...REVIEWED_BRANDS, ...derived];
}

function ownsNamespace(brand: Brand, namespace: string): boolean {
  const ns = namespace.toLowerCase();
  return brand.namespaces.some((owned) => ns === owned || ns.startsWith(`${owned}.`));
}

/**
 * The words a text says, folded like lookalike names (lib/facts/fold-name.ts) so
 * that `str1pe`, `sIack` or a Cyrillic `і` still say the brand, plus each pair of
 * neighbouring words joined, so that `git-hub` and `Open AI` say it too. `!` and `|`
 * read as `l` inside a word (`s|ack`) but end one in prose (`Stripe!`, `Slack|Notion`),
 * so a text holding them is read both ways.
 */
export function claimedTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const reading of /[!|]/.test(text) ? [text, text.replace(/[!|]/g, " ")] : [text]) {
    const ws = foldHomoglyphs(reading)
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    for (const w of ws) out.add(w);
    for (let i = 0; i + 1 < ws.length; i++) out.add(ws[i] + ws[i + 1]);
  }
  return out;
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
  const said = new Set([...claimedTokens(serverPart), ...claimedTokens(listing.title ?? "")]);
  const official = /\bofficial\b/i.test(`${listing.title ?? ""} ${listing.description ?? ""} ${serverPart}`);
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
