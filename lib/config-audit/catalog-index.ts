import { ociKey } from "./oci-image";
import { npmKey, pypiKey } from "./package-specs";
import { normalizeRemoteUrl, remoteUrlCandidates } from "./remote-url";
import { CANONICAL_NAME } from "./classify-entry";
import type { ConfigEntry, EntryIdentity } from "./types";

/** A listed catalog server a look-up matched. */
export interface CatalogMatch {
  name: string;
  /** registry_status of the listing (active, deprecated, …), null when the registry did not say. */
  status: string | null;
  /** When the listing's latest version was published, when the look-up knows it (name look-ups do not). */
  publishedAt?: Date | null;
}

export type PackageEcosystem = "jspkg" | "pypkg" | "oci";

/**
 * The catalog as the resolver sees it: listed servers (latest version only) by remote URL, by package and by
 * name. Keys are normalised by the index, so callers pass URLs, package names and image references as written.
 */
export interface CatalogIndex {
  byRemoteUrl(url: string): CatalogMatch[];
  byPackage(ecosystem: PackageEcosystem, identifier: string): CatalogMatch[];
  byName(name: string): CatalogMatch | null;
}

/** What the resolver needs looked up for a set of entries; a database (or a test) answers with CatalogHits. */
export interface CatalogQuery {
  /** Remote URL forms to look for, as they might be stored (exact forms and path prefixes). */
  remoteUrls: string[];
  /** npm names, lower-case. */
  jspkg: string[];
  /** PyPI names, PEP 503-normalised. */
  pypkg: string[];
  /** Image names (`docker.io/library/redis`), without tag. */
  oci: string[];
  /** Exact canonical names. */
  names: string[];
}

export type CatalogHit =
  | { via: "remote"; url: string; server: CatalogMatch }
  | { via: "package"; ecosystem: string; identifier: string; server: CatalogMatch }
  | { via: "name"; server: CatalogMatch };

/** Smithery's hosted endpoint for a qualified name: the catalog lists Smithery servers by it. */
export function smitheryUrls(qualifiedName: string): string[] {
  const n = qualifiedName.trim();
  return [`https://server.smithery.ai/${n}/mcp`, `https://server.smithery.ai/${n}`];
}

/** Smithery's registry namespace: `@owner/name` is published as `ai.smithery/owner-name`. */
export function smitheryRegistryName(qualifiedName: string): string {
  return `ai.smithery/${qualifiedName.replace(/^@/, "").replace("/", "-")}`;
}

/** Everything the entries' identities (and keys that are canonical names) need looked up, deduplicated. */
export function catalogQueryFor(items: { entry: ConfigEntry; identity: EntryIdentity }[]): CatalogQuery {
  const q = { remoteUrls: new Set<string>(), jspkg: new Set<string>(), pypkg: new Set<string>(), oci: new Set<string>(), names: new Set<string>() };
  const addUrl = (text: string) => {
    try {
      for (const c of remoteUrlCandidates(new URL(text))) q.remoteUrls.add(c.url);
    } catch {
      /* not a URL: nothing to look up */
    }
  };
  for (const { entry, identity } of items) {
    if (CANONICAL_NAME.test(entry.key)) q.names.add(entry.key);
    if (identity.unresolvable || !identity.identifier) continue;
    const id = identity.identifier;
    if (identity.kind === "remote") addUrl(id);
    else if (identity.kind === "jspkg") q.jspkg.add(npmKey(id));
    else if (identity.kind === "pypkg") q.pypkg.add(pypiKey(id));
    else if (identity.kind === "oci") {
      const key = ociKey(id);
      if (key) q.oci.add(key);
    } else if (identity.kind === "smithery") {
      smitheryUrls(id).forEach(addUrl);
      q.names.add(smitheryRegistryName(id));
    } else if (identity.kind === "name") q.names.add(id);
  }
  return { remoteUrls: [...q.remoteUrls], jspkg: [...q.jspkg], pypkg: [...q.pypkg], oci: [...q.oci], names: [...q.names] };
}

function packageKey(ecosystem: string, identifier: string): string | null {
  if (ecosystem === "jspkg") return npmKey(identifier);
  if (ecosystem === "pypkg") return pypiKey(identifier);
  if (ecosystem === "oci") return ociKey(identifier);
  return null;
}

function remoteKey(url: string): string | null {
  try {
    return normalizeRemoteUrl(url);
  } catch {
    return null;
  }
}

/** An index over look-up answers; the same normalisers are applied to the catalog's values and the entries'. */
export function buildCatalogIndex(hits: CatalogHit[]): CatalogIndex {
  const remotes = new Map<string, Map<string, CatalogMatch>>();
  const packages = new Map<string, Map<string, CatalogMatch>>();
  const names = new Map<string, CatalogMatch>();
  const add = (map: Map<string, Map<string, CatalogMatch>>, key: string | null, server: CatalogMatch) => {
    if (!key) return;
    let m = map.get(key);
    if (!m) map.set(key, (m = new Map()));
    m.set(server.name, server);
  };
  for (const h of hits) {
    if (h.via === "remote") add(remotes, remoteKey(h.url), h.server);
    else if (h.via === "package") {
      const key = packageKey(h.ecosystem, h.identifier);
      add(packages, key ? `${h.ecosystem}:${key}` : null, h.server);
    } else names.set(h.server.name, h.server);
  }
  const list = (m: Map<string, CatalogMatch> | undefined) => (m ? [...m.values()] : []);
  return {
    byRemoteUrl: (url) => list(remotes.get(remoteKey(url) ?? "")),
    byPackage: (ecosystem, identifier) => {
      const key = packageKey(ecosystem, identifier);
      return key ? list(packages.get(`${ecosystem}:${key}`)) : [];
    },
    byName: (name) => names.get(name) ?? null,
  };
}

/** A test or bench catalog: servers with their remotes and packages, as hits. */
export function hitsFromServers(
  servers: {
    name: string;
    status?: string | null;
    publishedAt?: Date | null;
    remotes?: string[];
    packages?: { ecosystem: string; identifier: string }[];
  }[],
): CatalogHit[] {
  const hits: CatalogHit[] = [];
  for (const s of servers) {
    const server = { name: s.name, status: s.status ?? "active", publishedAt: s.publishedAt ?? null };
    hits.push({ via: "name", server });
    for (const url of s.remotes ?? []) hits.push({ via: "remote", url, server });
    for (const p of s.packages ?? []) hits.push({ via: "package", ecosystem: p.ecosystem, identifier: p.identifier, server });
  }
  return hits;
}
