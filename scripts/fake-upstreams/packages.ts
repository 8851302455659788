import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface FakeNpmPackage {
  name: string;
  /** version → deprecation message (or null). */
  versions: Record<string, string | null>;
  latest: string;
  /** Fully unpublished: a tombstone document. */
  unpublished?: boolean;
}

export interface FakePypiProject {
  name: string;
  /** version → yanked */
  versions: Record<string, boolean>;
  latest: string;
  /** PEP 792 project status (absent: active), served by the Simple API only */
  status?: { status: "active" | "archived" | "quarantined" | "deprecated"; reason?: string };
}

const pep503 = (n: string) => n.replace(/[-_.]+/g, "-").toLowerCase();

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown) {
  const doc = JSON.stringify(body);
  if (status === 200) {
    const etag = `"${createHash("sha1").update(doc).digest("hex")}"`;
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
    return res.writeHead(200, { "content-type": "application/json", etag }).end(doc);
  }
  res.writeHead(status, { "content-type": "application/json" }).end(doc);
}

/** npm packuments in the full (not abbreviated) shape, tombstones for unpublished packages, 404 {"error":"Not found"}. */
export class FakeNpm {
  readonly packages = new Map<string, FakeNpmPackage>();
  calls = 0;

  set(p: FakeNpmPackage): void {
    this.packages.set(p.name, p);
  }

  handle(path: string, req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET" || path === "/" || path.startsWith("/-/")) return false;
    this.calls++;
    const name = decodeURIComponent(path.slice(1));
    const p = this.packages.get(name);
    if (!p) return send(req, res, 404, { error: "Not found" }), true;
    const t0 = "2025-06-01T00:00:00.000Z";
    if (p.unpublished) {
      return send(req, res, 200, {
        _id: p.name,
        name: p.name,
        time: { created: t0, modified: t0, unpublished: { time: t0, versions: Object.keys(p.versions), tags: { latest: p.latest } } },
      }), true;
    }
    const versions: Record<string, unknown> = {};
    const time: Record<string, string> = { created: t0, modified: t0 };
    for (const [v, dep] of Object.entries(p.versions)) {
      versions[v] = {
        name: p.name,
        version: v,
        ...(dep ? { deprecated: dep } : {}),
        dist: { tarball: `https://registry.npmjs.org/${p.name}/-/${p.name.split("/").pop()}-${v}.tgz`, shasum: "0", integrity: "sha512-0" },
      };
      time[v] = t0;
    }
    send(req, res, 200, {
      _id: p.name,
      _rev: "1-0",
      name: p.name,
      "dist-tags": { latest: p.latest },
      versions,
      time,
      maintainers: [{ name: "gen" }],
      repository: { type: "git", url: `git+https://github.com/gen/${p.name.replace(/^@/, "").replace("/", "-")}.git` },
    });
    return true;
  }
}

/**
 * PyPI's JSON API: 301 to the PEP 503 name, 404 {"message":"Not Found"}, releases with per-file yanked flags;
 * and the Simple API's JSON form (PEP 691, api-version 1.4) with the PEP 792 project status.
 */
export class FakePypi {
  readonly projects = new Map<string, FakePypiProject>();
  /** JSON API requests */
  calls = 0;
  simpleCalls = 0;

  set(p: FakePypiProject): void {
    this.projects.set(pep503(p.name), p);
  }

  handle(path: string, req: IncomingMessage, res: ServerResponse, baseUrl: string): boolean {
    const simple = /^\/simple\/([^/]+)\/$/.exec(path);
    if (simple && req.method === "GET") return this.handleSimple(decodeURIComponent(simple[1]), req, res, baseUrl);
    const m = /^\/pypi\/([^/]+)\/json$/.exec(path);
    if (!m || req.method !== "GET") return false;
    this.calls++;
    const asked = decodeURIComponent(m[1]);
    if (asked !== pep503(asked)) {
      res.writeHead(301, { location: `${baseUrl}/pypi/${pep503(asked)}/json` }).end();
      return true;
    }
    const p = this.projects.get(asked);
    if (!p) return send(req, res, 404, { message: "Not Found" }), true;
    const releases: Record<string, unknown[]> = {};
    for (const [v, yanked] of Object.entries(p.versions)) {
      releases[v] = [
        {
          filename: `${asked.replace(/-/g, "_")}-${v}-py3-none-any.whl`,
          packagetype: "bdist_wheel",
          upload_time_iso_8601: "2025-06-01T00:00:00.000000Z",
          yanked,
          yanked_reason: yanked ? "broken build" : null,
          digests: { sha256: "0" },
        },
      ];
    }
    send(req, res, 200, {
      info: { name: p.name, version: p.latest, summary: "generated", project_urls: null, yanked: false, yanked_reason: null },
      last_serial: 1,
      releases,
      urls: releases[p.latest] ?? [],
      vulnerabilities: [],
    });
    return true;
  }

  private handleSimple(asked: string, req: IncomingMessage, res: ServerResponse, baseUrl: string): boolean {
    this.simpleCalls++;
    if (asked !== pep503(asked)) return res.writeHead(301, { location: `${baseUrl}/simple/${pep503(asked)}/` }).end(), true;
    const p = this.projects.get(asked);
    if (!p || p.status?.status === "quarantined") return send(req, res, 404, { message: "Not Found" }), true;
    const files = Object.entries(p.versions).map(([v, yanked]) => ({
      filename: `${asked.replace(/-/g, "_")}-${v}-py3-none-any.whl`,
      url: `https://files.pythonhosted.org/packages/${asked}-${v}.whl`,
      hashes: { sha256: "0" },
      "upload-time": "2025-06-01T00:00:00.000000Z",
      yanked: yanked ? "broken build" : false,
    }));
    send(req, res, 200, {
      meta: { "api-version": "1.4", "_last-serial": 1 },
      name: asked,
      versions: Object.keys(p.versions),
      files,
      ...(p.status ? { "project-status": p.status } : {}),
    });
    return true;
  }
}

export interface FakeVuln {
  id: string;
  modified: string;
  summary: string;
  severity: "LOW" | "MODERATE" | "HIGH" | "CRITICAL";
  /** "npm" | "PyPI" */
  ecosystem: string;
  name: string;
  versions: string[];
  /** When the advisory was retracted; reinstating it removes this and moves `modified`. */
  withdrawn?: string;
  /** Other ids of the same flaw (OSV lists a PyPI flaw as its GHSA and its PYSEC, each naming the CVE); default `CVE-<id>`. */
  aliases?: string[];
}

/**
 * OSV: querybatch (≤1,000 queries, results in order, {} for none, next_page_token past pageSize; a query without a
 * version matches every version), vulns/{id}.
 */
export class FakeOsv {
  private byPackage = new Map<string, FakeVuln[]>();
  readonly vulns = new Map<string, FakeVuln>();
  batchCalls = 0;
  detailCalls = 0;
  /** Vulns per result page; past it a result carries next_page_token. */
  pageSize = 1000;

  add(v: FakeVuln): void {
    this.vulns.set(v.id, v);
    const k = `${v.ecosystem}\u0000${v.ecosystem === "PyPI" ? pep503(v.name) : v.name}`;
    const list = this.byPackage.get(k) ?? [];
    list.push(v);
    this.byPackage.set(k, list);
  }

  handle(path: string, req: IncomingMessage, res: ServerResponse, body: string): boolean {
    if (path === "/v1/querybatch" && req.method === "POST") {
      this.batchCalls++;
      let queries: any[];
      try {
        queries = JSON.parse(body).queries;
      } catch {
        return res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ code: 3, message: "Invalid JSON" })), true;
      }
      if (!Array.isArray(queries)) return res.writeHead(400).end(), true;
      if (queries.length > 1000) return res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ code: 3, message: "Too many queries." })), true;
      const results = queries.map((q) => {
        const name = q.package?.ecosystem === "PyPI" ? pep503(q.package?.name ?? "") : q.package?.name;
        // as OSV does: a query without a version (absent or empty) matches every advisory of the package
        const hits = (this.byPackage.get(`${q.package?.ecosystem}\u0000${name}`) ?? []).filter((v) => !q.version || v.versions.includes(q.version));
        const start = q.page_token ? Number(q.page_token) : 0;
        const page = hits.slice(start, start + this.pageSize);
        if (!page.length) return {};
        const r: Record<string, unknown> = { vulns: page.map((v) => ({ id: v.id, modified: v.modified })) };
        if (start + this.pageSize < hits.length) r.next_page_token = String(start + this.pageSize);
        return r;
      });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
      return true;
    }
    const m = /^\/v1\/vulns\/(.+)$/.exec(path);
    if (m && req.method === "GET") {
      this.detailCalls++;
      const v = this.vulns.get(decodeURIComponent(m[1]));
      if (!v) return res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: 5, message: "Bug not found." })), true;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          schema_version: "1.6.0",
          id: v.id,
          modified: v.modified,
          published: v.modified,
          aliases: v.aliases ?? [`CVE-${v.id}`],
          summary: v.summary,
          details: v.summary,
          affected: [{ package: { ecosystem: v.ecosystem, name: v.name }, versions: v.versions }],
          database_specific: { severity: v.severity },
          ...(v.withdrawn ? { withdrawn: v.withdrawn } : {}),
        }),
      );
      return true;
    }
    return false;
  }
}
