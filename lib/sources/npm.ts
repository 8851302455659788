import { npmRegistryUrl } from "@/lib/config";
import { upstreamRequest, type FetchJsonOptions } from "./http";

/** Per-version facts kept for a package: deprecation message (jspkg) or yanked flag (pypkg). */
export type VersionFacts = Record<string, { deprecated?: string; yanked?: boolean }>;

export type PackageAnswer =
  | { kind: "found"; latestVersion: string | null; versions: VersionFacts; deprecated: string | null; etag: string | null }
  | { kind: "missing"; httpStatus: number }
  | { kind: "unpublished"; httpStatus: number }
  | { kind: "not_modified"; etag: string }
  | { kind: "error"; error: string };

/** The packument path: a scoped name keeps its "@" and encodes the "/" (as the npm CLI does). */
export function packumentUrl(name: string, base = npmRegistryUrl()): string {
  return name.startsWith("@") ? `${base}/@${encodeURIComponent(name.slice(1))}` : `${base}/${encodeURIComponent(name)}`;
}

type Obj = Record<string, any>;

/**
 * GET the full packument (the abbreviated one has no time or repository). 404
 * is a missing package; a document with time.unpublished (served 200 or 404) is a fully
 * unpublished one (the tombstone, reference/upstream-apis.md §3). Anything
 * else that is not a package document (an error object, `{}`, no versions) is an
 * error: it says nothing about the package, so it must not read as "missing".
 * Deprecation is per version.
 */
export async function fetchPackument(name: string, etag: string | null, http: FetchJsonOptions = {}): Promise<PackageAnswer> {
  const url = packumentUrl(name);
  const res = await upstreamRequest(url, { ...http, headers: { accept: "application/json", ...(etag ? { "if-none-match": etag } : {}) }, json: true });
  if (res.status === 304 && etag) return { kind: "not_modified", etag };
  // the registry answers a fully unpublished package 404 too, its tombstone as the body: still an unpublication
  if (res.status === 404) return tombstone(res.text) ? { kind: "unpublished", httpStatus: 404 } : { kind: "missing", httpStatus: 404 };
  if (res.status !== 200) return { kind: "error", error: `${url}: HTTP ${res.status}` };
  const doc = res.body as Obj;
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { kind: "error", error: `${url}: not an object` };
  if (doc.time?.unpublished) return { kind: "unpublished", httpStatus: 200 };
  if (!doc.versions || typeof doc.versions !== "object" || Array.isArray(doc.versions)) {
    return { kind: "error", error: `${url}: not a package document (no versions)` };
  }
  const versions: VersionFacts = {};
  for (const [v, m] of Object.entries((doc.versions ?? {}) as Record<string, Obj>)) {
    versions[v] = typeof m?.deprecated === "string" && m.deprecated ? { deprecated: m.deprecated } : {};
  }
  // an empty tag names no version: kept, the vulnerability look-up would ask OSV for no version, which OSV answers
  // with every advisory of the package
  const latest = typeof doc["dist-tags"]?.latest === "string" && doc["dist-tags"].latest.trim() ? doc["dist-tags"].latest : null;
  if (!latest && !Object.keys(versions).length) return { kind: "error", error: `${url}: a package document without versions or a latest tag` };
  return { kind: "found", latestVersion: latest, versions, deprecated: latest ? (versions[latest]?.deprecated ?? null) : null, etag: res.headers.get("etag") };
}

/** Whether an answer's body is an unpublished package's tombstone (`time.unpublished`). */
function tombstone(text: string): boolean {
  try {
    const doc = JSON.parse(text) as Obj | null;
    return Boolean(doc && typeof doc === "object" && doc.time && typeof doc.time === "object" && doc.time.unpublished);
  } catch {
    return false;
  }
}
