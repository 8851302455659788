import { pypiUrl } from "@/lib/config";
import { upstreamRequest, type FetchJsonOptions } from "./http";
import type { PackageAnswer, VersionFacts } from "./npm";

/** PEP 503 name normalisation (what PyPI redirects to, and what OSV compares). */
export const normalizePypiName = (name: string) => name.replace(/[-_.]+/g, "-").toLowerCase();

export const pypiJsonUrl = (name: string, base = pypiUrl()) => `${base}/pypi/${encodeURIComponent(normalizePypiName(name))}/json`;

type Obj = Record<string, any>;

export const pypiSimpleUrl = (name: string, base = pypiUrl()) => `${base}/simple/${encodeURIComponent(normalizePypiName(name))}/`;

/** PEP 792 statuses that tell users to stop using a project: its every release counts as deprecated. */
const DEPRECATING_STATUSES = new Set(["deprecated", "archived"]);

/**
 * GET /pypi/{normalized}/json, then the Simple API's JSON form for the PEP 792 project status, which the JSON
 * API does not carry. 404 covers missing, release-less and quarantined projects. A release is yanked when
 * every file of it is. A project `deprecated` or `archived` marks every release deprecated (with the status
 * and its reason), as npm does for a deprecated package; `active`, or no status, marks none. Without the
 * status the answer is an error: "not deprecated" would be a guess.
 *
 * The stored validator is the JSON API's ETag and the status it was read with (`<etag> status=<status>`): a
 * status change does not change the JSON document, so a 304 stands only while the status is the same one.
 */
export async function fetchPypiProject(name: string, stored: string | null, http: FetchJsonOptions = {}): Promise<PackageAnswer> {
  const url = pypiJsonUrl(name);
  const validator = parseValidator(stored);
  let res = await upstreamRequest(url, { ...http, headers: { ...(validator ? { "if-none-match": validator.etag } : {}) }, json: true });
  let status: ProjectStatus | null = null;
  if (res.status === 304 && validator) {
    status = await fetchProjectStatus(name, http);
    if ("error" in status) return { kind: "error", error: status.error };
    if (status.status === validator.status) return { kind: "not_modified", etag: stored! };
    res = await upstreamRequest(url, { ...http, json: true }); // the status moved: read the project again
  }
  if (res.status === 404) return { kind: "missing", httpStatus: 404 };
  if (res.status !== 200) return { kind: "error", error: `${url}: HTTP ${res.status}` };
  const doc = res.body as Obj;
  if (!doc?.info || typeof doc.info !== "object") return { kind: "error", error: `${url}: no info object` };
  // `releases` is deprecated upstream and "may go away" (reference §4.1): without it the answer names no release,
  // and read as "none" every listing that pins one would be reported missing
  if (!doc.releases || typeof doc.releases !== "object" || Array.isArray(doc.releases)) return { kind: "error", error: `${url}: no releases map` };
  const versions: VersionFacts = {};
  for (const [v, files] of Object.entries(doc.releases as Record<string, Obj[]>)) {
    const list = Array.isArray(files) ? files : [];
    versions[v] = list.length && list.every((f) => f?.yanked === true) ? { yanked: true } : {};
  }
  // an empty version names no release (and asks OSV for every advisory of the project, as npm's empty tag would)
  const latest = typeof doc.info.version === "string" && doc.info.version.trim() ? doc.info.version : null;
  // PyPI's map holds every release, the latest one (`info.version`) among them: a map without it is cut short, and
  // read as it stands every listing pinning a release it lacks would be reported missing
  if (latest !== null && !Object.hasOwn(versions, latest)) return { kind: "error", error: `${url}: the releases map lacks the latest release ${latest}` };
  status ??= await fetchProjectStatus(name, http);
  if ("error" in status) return { kind: "error", error: status.error };
  const deprecated = DEPRECATING_STATUSES.has(status.status) ? `${status.status}${status.reason ? `: ${status.reason}` : ""}` : null;
  if (deprecated) for (const v of Object.keys(versions)) versions[v] = { ...versions[v], deprecated };
  const etag = res.headers.get("etag");
  return { kind: "found", latestVersion: latest, versions, deprecated, etag: etag ? `${etag} status=${status.status}` : null };
}

/** `<etag> status=<status>` as stored; a bare ETag (stored before statuses were read) has none, so it is read again. */
function parseValidator(stored: string | null): { etag: string; status: string } | null {
  const m = stored ? /^(.*) status=([a-z-]+)$/.exec(stored) : null;
  return m ? { etag: m[1], status: m[2] } : null;
}

type ProjectStatus = { status: string; reason: string | null } | { error: string };

/** The PEP 792 `project-status` of the Simple API (api-version ≥ 1.4); absent means `active`. */
async function fetchProjectStatus(name: string, http: FetchJsonOptions): Promise<ProjectStatus> {
  const url = pypiSimpleUrl(name);
  const res = await upstreamRequest(url, { ...http, headers: { accept: "application/vnd.pypi.simple.v1+json" }, json: true });
  if (res.status !== 200) return { error: `${url}: HTTP ${res.status}` };
  const doc = res.body as Obj;
  if (!doc || typeof doc !== "object" || !doc.meta) return { error: `${url}: not a Simple API JSON document` };
  const ps = doc["project-status"] as Obj | null | undefined;
  // a status we cannot read (no object, no status word) is not its absence: taken as `active`, it would be a guess
  if (ps != null && (typeof ps !== "object" || Array.isArray(ps) || typeof ps.status !== "string" || !ps.status)) {
    return { error: `${url}: unreadable project-status ${JSON.stringify(ps).slice(0, 100)}` };
  }
  // absent means `active` only where statuses exist (api-version 1.4 on); an older index (a mirror) says nothing
  if (typeof ps?.status !== "string" && !carriesProjectStatus(doc.meta["api-version"])) {
    return { error: `${url}: api-version ${String(doc.meta["api-version"] ?? "unknown")} carries no project status` };
  }
  const status = typeof ps?.status === "string" ? ps.status : "active";
  return { status, reason: typeof ps?.reason === "string" ? ps.reason : null };
}

/** Whether a Simple API answer's api-version (PEP 691 `major.minor`) is one with PEP 792 project statuses (1.4 on). */
function carriesProjectStatus(apiVersion: unknown): boolean {
  const m = typeof apiVersion === "string" ? /^(\d+)\.(\d+)$/.exec(apiVersion.trim()) : null;
  return m !== null && (Number(m[1]) > 1 || (Number(m[1]) === 1 && Number(m[2]) >= 4));
}
