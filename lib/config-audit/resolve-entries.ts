import { CANONICAL_NAME, classifyEntry } from "./classify-entry";
import { smitheryRegistryName, smitheryUrls, type CatalogIndex, type CatalogMatch } from "./catalog-index";
import { isExampleHost, remoteUrlCandidates } from "./remote-url";
import type { Confidence, ConfigEntry, EntryIdentity, EntryResolution, ResolvedBy, UnresolvedCode } from "./types";

/** Classifies every entry (pure, no look-ups): the first half of resolution, and what decides the look-ups. */
export function classifyEntries(entries: ConfigEntry[]): { entry: ConfigEntry; identity: EntryIdentity }[] {
  return entries.map((entry) => ({ entry, identity: classifyEntry(entry) }));
}

/**
 * Ties each classified entry to a listed catalog server, in this order: remote URL (exact, then the path cut
 * back to a listed endpoint), npm package, PyPI package, container image, Smithery's hosted URL or registry
 * name, and a canonical name only when the entry launches nothing. A key that is a canonical name is a hint,
 * never an identity: an entry that runs something the named server does not list is reported, not resolved
 * to that name.
 */
export function resolveEntries(items: { entry: ConfigEntry; identity: EntryIdentity }[], index: CatalogIndex): EntryResolution[] {
  return items.map(({ entry, identity }) => resolveEntry(entry, identity, index));
}

interface Match {
  matches: CatalogMatch[];
  resolvedBy: ResolvedBy;
  identifier: string;
  confidence: Confidence;
  note: string | null;
}

export function resolveEntry(entry: ConfigEntry, identity: EntryIdentity, index: CatalogIndex): EntryResolution {
  const base: EntryResolution = {
    entry,
    identity,
    serverName: null,
    resolvedBy: null,
    identifier: identity.identifier,
    confidence: null,
    alternatives: [],
    ambiguous: false,
    unresolved: null,
    notes: identity.note ? [identity.note] : [],
  };
  const keyServer = CANONICAL_NAME.test(entry.key) && identity.kind !== "name" ? index.byName(entry.key) : null;

  if (identity.unresolvable) {
    return keyMismatch(base, keyServer, identity.unresolvable.code, identity.unresolvable.summary);
  }
  const found = findMatch(identity, index);
  if (!found) {
    const { code, summary } = notFound(identity);
    return keyMismatch(base, keyServer, code, summary);
  }
  const ranked = rank(found.matches, entry.key);
  const [best, ...rest] = ranked;
  // the key names the match only when it is one of them: otherwise which listing the entry means is a guess
  const ambiguous = rest.length > 0 && best.name !== entry.key;
  const notes = [...base.notes];
  if (found.note) notes.push(found.note);
  if (ambiguous) notes.push(ambiguityNote(ranked, found.identifier));
  else if (rest.length) notes.push(`${ranked.length} listed servers match ${found.identifier}: ${ranked.map((m) => m.name).join(", ")}; verdict for ${best.name}, the one the key names`);
  if (keyServer && keyServer.name !== best.name) {
    notes.push(`the key names the catalog server ${keyServer.name}, but the entry runs ${found.identifier}, which is listed by ${best.name}`);
  }
  return {
    ...base,
    serverName: best.name,
    resolvedBy: found.resolvedBy,
    identifier: found.identifier,
    confidence: ambiguous ? "low" : minConfidence(found.confidence, identity.confidence),
    alternatives: rest.map((m) => m.name),
    ambiguous,
    notes,
  };
}

/** Says the match is ambiguous, names every candidate, and what picked the one whose verdict is given. */
function ambiguityNote(ranked: CatalogMatch[], identifier: string): string {
  const [best, next] = ranked;
  let why = "the first by name";
  if (isActive(best) && !isActive(next)) why = "the active listing";
  else if (publishedTime(best) > publishedTime(next)) why = "the listing whose latest version was published most recently";
  return (
    `ambiguous: ${ranked.length} listed servers match ${identifier} (${ranked.map((m) => m.name).join(", ")}) and the key names none of them; ` +
    `verdict for ${best.name}, ${why}, a guess (low confidence)`
  );
}

function findMatch(identity: EntryIdentity, index: CatalogIndex): Match | null {
  const id = identity.identifier;
  if (!id) return null;
  switch (identity.kind) {
    case "remote":
      return matchRemote(id, index);
    case "jspkg":
    case "pypkg":
    case "oci": {
      const matches = index.byPackage(identity.kind, id);
      return matches.length ? { matches, resolvedBy: identity.kind, identifier: id, confidence: identity.confidence, note: null } : null;
    }
    case "smithery": {
      for (const url of smitheryUrls(id)) {
        const m = matchRemote(url, index, true);
        if (m) return { ...m, confidence: "medium", note: `Smithery server ${id}, matched by its hosted endpoint ${m.identifier}` };
      }
      const named = index.byName(smitheryRegistryName(id));
      return named ? { matches: [named], resolvedBy: "name", identifier: named.name, confidence: "medium", note: `Smithery server ${id}, matched by its registry name` } : null;
    }
    case "name": {
      const named = index.byName(id);
      return named ? { matches: [named], resolvedBy: "name", identifier: id, confidence: "medium", note: "the entry launches nothing; matched by its key, a canonical name" } : null;
    }
    default:
      return null;
  }
}

function matchRemote(text: string, index: CatalogIndex, exactOnly = false): Match | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  for (const c of remoteUrlCandidates(url)) {
    if (!c.exact && exactOnly) break;
    const matches = index.byRemoteUrl(c.url);
    if (matches.length) {
      return {
        matches,
        resolvedBy: "remote_url",
        identifier: c.url,
        confidence: c.exact ? "high" : "medium",
        note: c.exact ? null : `matched the listed endpoint ${c.url}, a prefix of ${text} (the rest is read as a tenant or project path)`,
      };
    }
  }
  return null;
}

function notFound(identity: EntryIdentity): { code: UnresolvedCode; summary: string } {
  const id = identity.identifier ?? "";
  switch (identity.kind) {
    case "remote": {
      let host = "";
      try {
        host = new URL(id).hostname;
      } catch {
        /* unparseable: reported as not in the catalog */
      }
      if (host && isExampleHost(host)) return { code: "placeholder", summary: `the URL ${id} is on a documentation host (${host}): a placeholder, not a real endpoint` };
      return { code: "not_in_catalog", summary: `no listed server has the remote endpoint ${id}` };
    }
    case "jspkg":
      return { code: "not_in_catalog", summary: `no listed server names the npm package ${id}` };
    case "pypkg":
      return { code: "not_in_catalog", summary: `no listed server names the PyPI package ${id}${identity.confidence === "low" ? " (a guess from a python -m module name)" : ""}` };
    case "oci":
      return { code: "not_in_catalog", summary: `no listed server names the container image ${id.replace(/[:@][^/]*$/, "")}` };
    case "smithery":
      return { code: "not_in_catalog", summary: `the Smithery server ${id} is not in the registry catalog (neither its hosted endpoint nor ${smitheryRegistryName(id)} is listed)` };
    case "name":
      return { code: "not_in_catalog", summary: `no listed server is named ${id}` };
    default:
      return { code: "not_a_registry_artifact", summary: `${id} cannot be tied to a catalog server` };
  }
}

/** An unresolved entry whose key names a listed server: the file claims an identity its launch does not show. */
function keyMismatch(base: EntryResolution, keyServer: CatalogMatch | null, code: UnresolvedCode, summary: string): EntryResolution {
  if (!keyServer) return { ...base, unresolved: { code, summary } };
  return {
    ...base,
    unresolved: {
      code: "key_mismatch",
      summary: `the key names the catalog server ${keyServer.name}, but ${summary}; the listing of ${keyServer.name} does not vouch for what this entry runs`,
    },
  };
}

/**
 * The entry's key (when it is a name) first, then active listings, then the most recently published (the
 * listing most likely maintained), then by name (code units: localeCompare follows the machine's locale), so the
 * choice is the same on every machine.
 */
function rank(matches: CatalogMatch[], key: string): CatalogMatch[] {
  const score = (m: CatalogMatch) => (m.name === key ? 0 : 2) + (isActive(m) ? 0 : 1);
  const byName = (a: CatalogMatch, b: CatalogMatch) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...matches].sort((a, b) => score(a) - score(b) || publishedTime(b) - publishedTime(a) || byName(a, b));
}

const isActive = (m: CatalogMatch) => m.status === null || m.status === "active";
/** Unknown publication times sort last. */
const publishedTime = (m: CatalogMatch) => m.publishedAt?.getTime() ?? -Infinity;

const ORDER: Confidence[] = ["low", "medium", "high"];
function minConfidence(a: Confidence, b: Confidence): Confidence {
  return ORDER[Math.min(ORDER.indexOf(a), ORDER.indexOf(b))];
}
