import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, count, gt } from "drizzle-orm";
import { FakeRegistry } from "@/scripts/fake-upstreams/registry";
import { ingestFromRegistry } from "@/lib/catalog/ingest-from-registry";
import { changes } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { startHttpServer } from "../helpers/http-server";
import { hasSharedData, snapshotFiles } from "../helpers/shared-data";

type Obj = Record<string, any>;
const REGISTRY_KINDS = new Set(["server_new", "endpoint_moved", "registry_status", "spec_era_change"]);

/**
 * What each server's latest row says in one raw snapshot file, read here
 * without any of the ingest code: status (either API era), the $schema date,
 * and the set of remote URLs.
 */
function rawLatestStates(file: string): Map<string, { status: string | null; era: string | null; remotes: string[] }> {
  const body = JSON.parse(gunzipSync(fs.readFileSync(file)).toString("utf8"));
  const out = new Map<string, { status: string | null; era: string | null; remotes: string[] }>();
  for (const x of body.servers as Obj[]) {
    const server = x.server ?? x;
    const official = (x._meta ?? {})["io.modelcontextprotocol.registry/official"] ?? {};
    if (!(official.isLatest ?? official.is_latest)) continue;
    const era = /\/schemas\/(\d{4}-\d{2}-\d{2})\//.exec(server.$schema ?? "")?.[1] ?? null;
    const remotes = [...new Set<string>((server.remotes ?? []).filter((r: Obj) => r?.url && (r.type ?? r.transport_type)).map((r: Obj) => r.url))].sort();
    out.set(server.name, { status: (x.server ? official.status : (x.status ?? official.status)) ?? null, era, remotes });
  }
  return out;
}

/** The change records an independent diff of consecutive snapshots implies, day by day. */
function expectedChanges(files: string[]): string[][] {
  const known = new Map<string, { status: string | null; era: string | null; remotes: string[]; listed: boolean }>();
  return files.map((file) => {
    const day: string[] = [];
    const now = rawLatestStates(file);
    for (const [name, s] of now) {
      const k = known.get(name);
      if (!k) day.push(`server_new ${name}`);
      else {
        if (!k.listed || k.status !== s.status) day.push(`registry_status ${name} ${k.status}/${k.listed} -> ${s.status}/true`);
        if (k.era !== s.era) day.push(`spec_era_change ${name} ${k.era} -> ${s.era}`);
        if (k.remotes.join(" ") !== s.remotes.join(" ")) day.push(`endpoint_moved ${name} [${k.remotes.join(" ")}] -> [${s.remotes.join(" ")}]`);
      }
      known.set(name, { ...s, listed: true });
    }
    for (const [name, k] of known) {
      if (k.listed && !now.has(name)) {
        day.push(`registry_status ${name} ${k.status}/true -> ${k.status}/false`);
        k.listed = false;
      }
    }
    return day.sort();
  });
}

function describeChange(c: typeof changes.$inferSelect): string {
  const b = c.before as Obj | null;
  const a = c.after as Obj;
  switch (c.kind) {
    case "server_new":
      return `server_new ${c.serverName}`;
    case "registry_status":
      return `registry_status ${c.serverName} ${b!.status}/${b!.listed} -> ${a.status}/${a.listed}`;
    case "spec_era_change":
      return `spec_era_change ${c.serverName} ${b!.spec_era} -> ${a.spec_era}`;
    default:
      return `endpoint_moved ${c.serverName} [${b!.remotes.join(" ")}] -> [${a.remotes.join(" ")}]`;
  }
}

/** A fake registry on a local port and a fresh database, set up before a describe block and closed after it. */
function registryWorld() {
  const world = { registry: new FakeRegistry(), url: "", db: undefined as unknown as Db };
  let server: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      if (!world.registry.handle(req, res)) res.writeHead(404).end();
    });
    world.url = server.url;
    world.db = await resetDb();
  });
  afterAll(() => server?.close());
  return world;
}

describe.skipIf(!hasSharedData)("registry change detection over the shared snapshots", () => {
  const w = registryWorld();
  const registry = w.registry;

  it("a day-by-day replay through the fake registry records exactly the transitions a diff of the raw files gives", async () => {
    const files = snapshotFiles();
    const expected = expectedChanges(files);
    // the replay must exercise every registry kind, or it proves little
    const all = expected.flat();
    for (const kind of REGISTRY_KINDS) expect(all.some((l) => l.startsWith(kind)), kind).toBe(true);

    let cursor = 0;
    for (const [i, file] of files.entries()) {
      const entries = JSON.parse(gunzipSync(fs.readFileSync(file)).toString("utf8")).servers;
      registry.load(entries);
      await ingestFromRegistry(w.db, { baseUrl: w.url, mode: "full" });
      const rows = await w.db.select().from(changes).where(gt(changes.id, cursor)).orderBy(asc(changes.id));
      cursor = rows.at(-1)?.id ?? cursor;
      const got = rows.filter((r) => REGISTRY_KINDS.has(r.kind)).map(describeChange).sort();
      expect(got, path.basename(file)).toEqual(expected[i]);
    }
  }, 600_000);

  it("crawling the same listing again records no change", async () => {
    const [{ n: before }] = await w.db.select({ n: count() }).from(changes);
    expect(before).toBeGreaterThan(0);
    await ingestFromRegistry(w.db, { baseUrl: w.url, mode: "full" });
    const [{ n: after }] = await w.db.select({ n: count() }).from(changes);
    expect(after).toBe(before);
  });
});

describe("registry status transitions through incremental crawls", () => {
  const w = registryWorld();
  const registry = w.registry;
  const OFFICIAL = "io.modelcontextprotocol.registry/official";
  const row = (status: string, updatedAt: string, remotes: string[] = ["https://mcp.example.com/mcp"]) => ({
    server: {
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
      name: "com.example/weather",
      description: "weather",
      version: "1.0.0",
      remotes: remotes.map((url) => ({ type: "streamable-http", url })),
    },
    _meta: { [OFFICIAL]: { status, publishedAt: "2026-01-01T00:00:00Z", updatedAt, isLatest: true } },
  });

  it("records active → deprecated → deleted, each once, with the deleted row the registry includes after updated_since", async () => {
    registry.load([row("active", "2026-01-01T00:00:00Z")]);
    await ingestFromRegistry(w.db, { baseUrl: w.url, mode: "full" });
    registry.load([row("deprecated", "2026-01-02T00:00:00Z", ["https://mcp2.example.com/mcp"])]);
    await ingestFromRegistry(w.db, { baseUrl: w.url, mode: "incremental" });
    registry.load([row("deleted", "2026-01-03T00:00:00Z", ["https://mcp2.example.com/mcp"])]);
    const r = await ingestFromRegistry(w.db, { baseUrl: w.url, mode: "incremental" });
    expect(r.counts.entries).toBe(1); // deleted rows are hidden from complete listings but not from updated_since
    const rows = await w.db.select().from(changes).orderBy(asc(changes.id));
    expect(rows.map((c) => [c.kind, c.before, c.after])).toEqual([
      ["server_new", null, { version: "1.0.0", registry_status: "active", spec_era: "2025-10-17", remotes: ["https://mcp.example.com/mcp"] }],
      ["registry_status", { status: "active", listed: true }, { status: "deprecated", listed: true }],
      ["endpoint_moved", { remotes: ["https://mcp.example.com/mcp"] }, { remotes: ["https://mcp2.example.com/mcp"] }],
      ["registry_status", { status: "deprecated", listed: true }, { status: "deleted", listed: true }],
    ]);
  });
});
