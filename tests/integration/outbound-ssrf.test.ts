import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { fetchPublic, OutboundBlockedError } from "@/lib/net/fetch-public";
import { probeRemote } from "@/lib/sources/liveness";
import { fetchPackument } from "@/lib/sources/npm";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { ingestFromRegistry } from "@/lib/catalog/ingest-from-registry";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { changes, remoteObservations } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { startHttpServer } from "../helpers/http-server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";

describe("outbound requests reach only public addresses", () => {
  let hits = 0;
  let target: Awaited<ReturnType<typeof startHttpServer>>;
  let redirector: Awaited<ReturnType<typeof startHttpServer>>;
  const saved = process.env.OUTBOUND_ALLOW_HOSTS;

  beforeAll(async () => {
    target = await startHttpServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const port = new URL(target.url).port;
    redirector = await startHttpServer((req, res) => {
      hits++;
      const to = req.url === "/to-loopback-2" ? `http://127.0.0.2:${port}/` : `http://169.254.169.254/latest/meta-data/`;
      res.writeHead(302, { location: to }).end();
    });
  });
  afterEach(() => {
    process.env.OUTBOUND_ALLOW_HOSTS = saved;
  });
  afterAll(async () => {
    await target?.close();
    await redirector?.close();
  });

  it("refuses loopback, private, link-local, CGNAT and metadata addresses before connecting", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const port = new URL(target.url).port;
    hits = 0;
    for (const url of [
      target.url,
      `http://localhost:${port}/`, // a name: refused after DNS resolution
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:0:7f00:1]:${port}/`, // IPv4-translated (SIIT) 127.0.0.1
      `http://0.0.0.0:${port}/`,
      "http://10.0.0.1/",
      "http://192.168.0.1/",
      "http://172.20.0.1/",
      "http://100.64.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
    ]) {
      await expect(fetchPublic(url), url).rejects.toBeInstanceOf(OutboundBlockedError);
    }
    expect(hits).toBe(0);
    await expect(fetchPublic("file:///etc/passwd")).rejects.toThrow(/only http and https/);
  });

  it("checks every redirect hop, not only the first address", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    hits = 0;
    await expect(fetchPublic(`${redirector.url}/to-loopback-2`)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(fetchPublic(`${redirector.url}/to-metadata`)).rejects.toBeInstanceOf(OutboundBlockedError);
    expect(hits).toBe(2); // the redirector answered; nothing behind it was reached
    const ok = await fetchPublic(target.url);
    expect(ok.status).toBe(200);
    expect(hits).toBe(3);
  });

  it("every source refuses too: registry crawl, package registry, liveness probe", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    hits = 0;
    const db = await resetDb();
    await expect(ingestFromRegistry(db, { baseUrl: target.url, mode: "full", http: { retries: 0 } })).rejects.toThrow(/not a public address/);
    const saveNpm = process.env.NPM_REGISTRY_URL;
    process.env.NPM_REGISTRY_URL = "http://192.168.1.10";
    try {
      const r = await fetchPackument("left-pad", null, { retries: 0 });
      expect(r).toEqual({ kind: "error", error: expect.stringMatching(/refused to connect to 192\.168\.1\.10/) });
    } catch (err) {
      expect((err as Error).message).toMatch(/refused to connect to 192\.168\.1\.10/);
    } finally {
      process.env.NPM_REGISTRY_URL = saveNpm;
    }
    const probe = await probeRemote("http://10.20.30.40/mcp", "streamable-http", { timeoutMs: 2000 });
    expect(probe).toEqual({ outcome: "unreachable", error: expect.stringMatching(/^refused: /) });
    expect(hits).toBe(0);
  });

  it("a remote on a private address is never probed: the attempt is recorded, nothing is observed", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const db = await resetDb();
    const at = "2026-06-01T00:00:00Z";
    await ingestEntries(
      db,
      [
        {
          server: { name: "io.example/internal", description: "points inside", version: "1.0.0", remotes: [{ type: "streamable-http", url: "http://169.254.169.254/mcp" }] },
          _meta: { [OFFICIAL]: { status: "active", publishedAt: at, updatedAt: at, isLatest: true } },
        },
      ],
      { source: "file", origin: "test", complete: true, observedAt: new Date(at) },
    );
    const r = await runHarvest(db, { trigger: "test", sources: ["liveness"] });
    expect(r.counts.liveness).toEqual({ due: 1, attempted: 1, observed: 0, failed: 1 });
    const [o] = await db.select().from(remoteObservations).where(eq(remoteObservations.url, "http://169.254.169.254/mcp"));
    expect(o).toMatchObject({ live: null, observedAt: null, lastError: expect.stringMatching(/not a public address/) });
    expect(o.attemptedAt).not.toBeNull();
    expect((await db.select().from(changes)).map((c) => c.kind)).toEqual(["server_new"]);
  });
});
