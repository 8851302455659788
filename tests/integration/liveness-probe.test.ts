import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeListedRemote, probeRemote } from "@/lib/sources/liveness";
import { observeRemotes } from "@/lib/harvest/observe-remotes";
import { remoteObservations } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";
import { startMcpTestServer } from "../helpers/mcp-test-server";

// What one probe of a streamable-HTTP remote concludes (docs/harvester.md): a timeout is no answer
// ("unreachable": only the attempt is recorded), whatever the server answered before it stalled.
describe("probeRemote", () => {
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  const saved = process.env.OUTBOUND_ALLOW_HOSTS;
  beforeAll(async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = saved;
    await mcp?.close();
  });

  it("is up on a server that has no GET stream (405, as the transport spec allows)", async () => {
    mcp.state.getStatus = 405;
    expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "up", toolsCount: 1 });
  });

  it("calls a server that stalls on tools/list after that 405 unreachable (timed out), not down with HTTP 405", async () => {
    mcp.state.getStatus = 405;
    mcp.state.stall = "tools/list";
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 1500 })).toEqual({ outcome: "unreachable", error: "timed out after 1500 ms" });
    } finally {
      mcp.state.stall = undefined;
    }
  });

  it("calls a throttled endpoint (429) unreachable: an answer, but no verdict", async () => {
    mcp.state.status = 429;
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toEqual({ outcome: "unreachable", error: "HTTP 429 (rate limited)" });
    } finally {
      mcp.state.status = 200;
    }
  });

  it("calls a remote whose name does not resolve down, unless this machine resolves no names at all", async () => {
    const saved = process.env.REGISTRY_URL;
    try {
      // the registry's host is the canary: localhost resolves everywhere, a .invalid name nowhere (RFC 6761)
      process.env.REGISTRY_URL = "http://localhost:9";
      expect(await probeRemote("https://gone-remote.invalid/mcp", "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", error: "ENOTFOUND" });
      process.env.REGISTRY_URL = "https://registry.invalid";
      expect(await probeRemote("https://gone-remote.invalid/mcp", "streamable-http", { timeoutMs: 3000 })).toEqual({
        outcome: "unreachable",
        error: expect.stringMatching(/^ENOTFOUND, but registry\.invalid does not resolve either \(ENOTFOUND\): this machine's name resolution is failing/),
      });
    } finally {
      if (saved === undefined) delete process.env.REGISTRY_URL;
      else process.env.REGISTRY_URL = saved;
    }
  });

  it("still calls a server that answers its POSTs with an HTTP error down", async () => {
    mcp.state.status = 503;
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", httpStatus: 503 });
    } finally {
      mcp.state.status = 200;
    }
  });

  describe("a URL listed with two transports (as com.teamwork/mcp lists one)", () => {
    it("is up when it answers on either: streamable HTTP first, so the SSE listing does not make it down", async () => {
      mcp.state.getStatus = 405;
      // as SSE alone, this streamable-only server is down (its GET stream answers 405)
      expect(await probeRemote(mcp.url, "sse", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", httpStatus: 405 });
      expect(await probeListedRemote(mcp.url, ["sse", "streamable-http"], { timeoutMs: 3000 })).toMatchObject({ outcome: "up", type: "streamable-http", toolsCount: 1 });
    });

    it("is down only when every listed transport says so, and without a verdict when one got no answer", async () => {
      mcp.state.status = 503;
      try {
        expect(await probeListedRemote(mcp.url, ["sse", "streamable-http"], { timeoutMs: 3000 })).toMatchObject({ outcome: "down", httpStatus: 503, type: "streamable-http" });
      } finally {
        mcp.state.status = 200;
      }
      mcp.state.getStatus = 405;
      mcp.state.stall = "tools/list";
      try {
        expect(await probeListedRemote(mcp.url, ["streamable-http", "sse"], { timeoutMs: 1500 })).toMatchObject({ outcome: "unreachable", type: "streamable-http" });
      } finally {
        mcp.state.stall = undefined;
      }
    });

    it("is recorded live by a refresh of a server that lists it both ways", async () => {
      mcp.state.getStatus = 405;
      const db = await resetDb();
      await loadFixtureCatalog(db, [
        listing({ name: "io.github.both/ways", remotes: [{ type: "sse", url: mcp.url }, { type: "streamable-http", url: mcp.url }] }),
      ]);
      await observeRemotes(db, [mcp.url]);
      expect(await db.select({ live: remoteObservations.live, type: remoteObservations.type }).from(remoteObservations)).toEqual([{ live: true, type: "streamable-http" }]);
    });
  });
});
