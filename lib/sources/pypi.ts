import { pypiUrl } from "@/lib/config";
import { upstreamRequest, type FetchJsonOptions } from "./http";
import type { PackageAnswer, VersionFacts } from "./npm";

/** PEP 503 name normalisation (what PyPI redirects to, and what OSV compares). */
export const normalizePypiName = (name: string) => name.replace(/[-_.]+/g, "-").toLowerCase();

export const pypiJsonUrl = (name: string, base = pypiUrl()) => `${base}/pypi/${encodeURIComponent(normalizePypiName(name))}/json`;

type Obj = Record<string, any>;

/**
 * GET /pypi/{normalized}/json. 404 covers missing, release-less and
 * quarantined projects. A release is yanked when every file of it is.
 */
export async function fetchPypiProject(name: string, etag: string | null, http: FetchJsonOptions = {}): Promise<PackageAnswer> {
  const url = pypiJsonUrl(name);
  const res = await upstreamRequest(url, { ...http, headers: { ...(etag ? { "if-none-match": etag } : {}) }, json: true });
  if (res.status === 304 && etag) return { kind: "not_modified", etag };
  if (res.status === 404) return { kind: "missing", httpStatus: 404 };
  if (res.status !== 200) return { kind: "error", error: `${url}: HTTP ${res.status}` };
  const doc = res.body as Obj;
  if (!doc?.info || typeof doc.info !== "object") return { kind: "error", error: `${url}: no info object` };
  const versions: VersionFacts = {};
  for (const [v, files] of Object.entries((doc.releases ?? {}) as Record<string, Obj[]>)) {
    const list = Array.isArray(files) ? files : [];
    versions[v] = list.length && list.every((f) => f?.yanked === true) ? { yanked: true } : {};
  }
  const latest = typeof doc.info.version === "string" ? doc.info.version : null;
  return { kind: "found", latestVersion: latest, versions, deprecated: null, etag: res.headers.get("etag") };
}
