import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVENESS_MAX_ANSWER_BYTES, probeListedRemote, probeRemote } from "@/lib/sources/liveness";
import { observeRemotes } from "@/lib/harvest/observe-remotes";
import { changes, remoteObservations } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";
import { startMcpTestServer } from "../helpers/mcp-test-server";
import { startHttpServer } from "../helpers/http-server";

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

  it("is up on a server that offers no tools (no tools capability): it answered initialize, and has no tool list to read", async () => {
    mcp.state.getStatus = 405;
    mcp.state.tools = [];
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "up", toolsCount: 0 });
    } finally {
      mcp.state.tools = ["get_forecast"];
    }
  });

  it("reads every page of tools/list, and hashes the list the same however it is split", async () => {
    mcp.state.getStatus = 405;
    mcp.state.tools = ["a", "b", "c", "d", "e"];
    try {
      mcp.state.pageSize = 2;
      const paged = await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 });
      mcp.state.pageSize = 5;
      const whole = await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 });
      expect(paged).toMatchObject({ outcome: "up", toolsCount: 5 });
      expect(paged.outcome === "up" && paged.toolsHash).toBe(whole.outcome === "up" && whole.toolsHash);
    } finally {
      mcp.state.tools = ["get_forecast"];
      mcp.state.pageSize = undefined;
    }
  });

  it("gives no tool count or hash for a list it could not read to its end (a cursor that repeats, too many pages)", async () => {
    // up (it answered), but the tools it showed are not its tool list: 20 copies of one page counted as 20× the
    // tools, or the first 20 pages of more, would be told to watchers as the server's tools
    mcp.state.getStatus = 405;
    mcp.state.tools = Array.from({ length: 30 }, (_, i) => `tool_${String(i).padStart(2, "0")}`);
    try {
      mcp.state.pageSize = 2;
      mcp.state.loopCursor = true;
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 5000 })).toMatchObject({ outcome: "up", toolsCount: null, toolsHash: null });
      mcp.state.loopCursor = false;
      mcp.state.pageSize = 1;
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 5000 })).toMatchObject({ outcome: "up", toolsCount: null, toolsHash: null });
      mcp.state.pageSize = 2;
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 5000 })).toMatchObject({ outcome: "up", toolsCount: 30 });
    } finally {
      mcp.state.tools = ["get_forecast"];
      mcp.state.pageSize = undefined;
      mcp.state.loopCursor = false;
    }
  });

  it("is up on a server whose tools declare output schemas a validator could not compile: the probe calls no tool", async () => {
    mcp.state.getStatus = 405;
    // a $ref that resolves nowhere, and a pattern in Python's regex syntax (JavaScript's u-mode refuses it)
    for (const outputSchema of [
      { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      { type: "object", properties: { a: { type: "string", pattern: "^(?P<id>[a-z]+)$" } } },
    ]) {
      mcp.state.outputSchema = outputSchema;
      try {
        expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "up", toolsCount: 1 });
      } finally {
        mcp.state.outputSchema = undefined;
      }
    }
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

  // The optional GET stream's status is not the endpoint's answer: initialize was answered without credentials,
  // so a 401 there made "up, auth required" of a probe whose tools/list then got no HTTP answer at all
  it("does not take the optional GET stream's 401 for the answer of a tools/list that got none", async () => {
    mcp.state.getStatus = 401;
    mcp.state.reset = "tools/list";
    try {
      const r = await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 });
      expect(r).not.toMatchObject({ authRequired: true });
      expect(r).not.toMatchObject({ httpStatus: 401 });
    } finally {
      mcp.state.reset = undefined;
      mcp.state.getStatus = 405;
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

  it("judges an SSE remote's failed connection as a streamable-HTTP one's: its event source keeps only the error's text", async () => {
    // a non-public address is our own refusal, no verdict, on either transport
    delete process.env.OUTBOUND_ALLOW_HOSTS;
    try {
      for (const type of ["streamable-http", "sse"]) {
        expect(await probeRemote(mcp.url, type, { timeoutMs: 3000 })).toEqual({ outcome: "unreachable", error: expect.stringMatching(/^refused: /) });
      }
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    }
    // a name that does not resolve while the registry's host does not either says nothing about the remote
    const saved = process.env.REGISTRY_URL;
    try {
      process.env.REGISTRY_URL = "https://registry.invalid";
      expect(await probeRemote("https://gone-remote.invalid/sse", "sse", { timeoutMs: 3000 })).toEqual({
        outcome: "unreachable",
        error: expect.stringMatching(/^ENOTFOUND, but registry\.invalid does not resolve either/),
      });
      // while names resolve, it is down, with the code
      process.env.REGISTRY_URL = "http://localhost:9";
      expect(await probeRemote("https://gone-remote.invalid/sse", "sse", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", error: "ENOTFOUND" });
    } finally {
      if (saved === undefined) delete process.env.REGISTRY_URL;
      else process.env.REGISTRY_URL = saved;
    }
  });

  it("does not call a URL with a user name or password down: it cannot be probed (fetch will not send it), so there is no verdict", async () => {
    let asked = 0;
    mcp.state.onRequest = () => asked++;
    try {
      const url = mcp.url.replace("://", "://user:secret@");
      for (const type of ["streamable-http", "sse"]) {
        expect(await probeRemote(url, type, { timeoutMs: 3000 })).toEqual({ outcome: "unreachable", error: expect.stringMatching(/^not probed: the URL carries a user name or password/) });
      }
      expect(asked).toBe(0);
    } finally {
      mcp.state.onRequest = undefined;
    }
  });

  it("does not call a URL on a port fetch refuses (the Fetch standard's bad ports) down: it is never asked, so there is no verdict", async () => {
    // fetch fails such a URL before any socket ("bad port"); a listed remote on :6000 was recorded down, with a
    // remote_down change, though nothing had been asked
    for (const type of ["streamable-http", "sse"]) {
      expect(await probeRemote("http://127.0.0.1:6000/mcp", type, { timeoutMs: 3000 })).toEqual({ outcome: "unreachable", error: expect.stringMatching(/^not probed: port 6000 is one HTTP clients never connect to/) });
    }
    const db = await resetDb();
    await loadFixtureCatalog(db, [listing({ name: "io.github.test/x11", remotes: [{ type: "streamable-http", url: "http://127.0.0.1:6000/mcp" }] })]);
    await observeRemotes(db, ["http://127.0.0.1:6000/mcp"]);
    expect((await db.select({ live: remoteObservations.live }).from(remoteObservations))).toEqual([{ live: null }]);
    expect((await db.select().from(changes)).filter((c) => c.kind === "remote_down")).toEqual([]);
  });

  it("still calls a server that answers its POSTs with an HTTP error down", async () => {
    mcp.state.status = 503;
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", httpStatus: 503 });
    } finally {
      mcp.state.status = 200;
    }
  });

  it("stops reading an endpoint whose answers never end (no verdict), rather than holding them in memory until the timeout", async () => {
    // anyone may list an endpoint: one streaming without end pushed a gigabyte into the process within the
    // probe's timeout, sixteen probes at a time
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const endless = http.createServer((req, res) => {
      const sse = req.method === "GET";
      res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json" });
      res.write(sse ? "event: endpoint\ndata: /" : '{"jsonrpc":"2.0","id":0,"result":{"padding":"');
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    await new Promise<void>((r) => endless.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/mcp`;
      for (const type of ["streamable-http", "sse"]) {
        sent = 0;
        expect(await probeRemote(url, type, { timeoutMs: 30_000 })).toEqual({ outcome: "unreachable", error: `its answers are over ${LIVENESS_MAX_ANSWER_BYTES} bytes, not read` });
        // what the sockets' buffers held beyond the limit, not the 30 s of streaming
        expect(sent).toBeLessThan(LIVENESS_MAX_ANSWER_BYTES + 16 * 1024 * 1024);
      }
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((r) => endless.close(() => r()));
    }
  });

  it("reads the answers of a real endpoint whole, up to the limit, however they are split", async () => {
    expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000, maxAnswerBytes: 100 })).toMatchObject({ outcome: "unreachable", error: "its answers are over 100 bytes, not read" });
    expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000, maxAnswerBytes: 64 * 1024 })).toMatchObject({ outcome: "up", toolsCount: 1 });
  });

  it("records a remote whose serverInfo holds a NUL character, and the other remotes written with it", async () => {
    // Postgres text cannot hold U+0000: the remote's own name failed the write of its whole batch (every
    // harvest run, since the unwritten URL stays first in line), and no remote_down or remote_up was recorded
    mcp.state.name = "evil\u0000name";
    const gone = await startHttpServer((_req, res) => res.writeHead(404).end());
    const DOWN_URL = `${gone.url}/mcp`;
    try {
      const db = await resetDb();
      await loadFixtureCatalog(db, [
        listing({ name: "io.github.odd/name", remotes: [{ type: "streamable-http", url: mcp.url }] }),
        listing({ name: "io.github.test/down", remotes: [{ type: "streamable-http", url: DOWN_URL }] }),
      ]);
      await observeRemotes(db, [mcp.url, DOWN_URL]);
      const observed = await db.select({ url: remoteObservations.url, live: remoteObservations.live, serverInfo: remoteObservations.serverInfo }).from(remoteObservations);
      expect(observed.sort((a, b) => a.url.localeCompare(b.url))).toEqual(
        [
          { url: mcp.url, live: true, serverInfo: "evil\ufffdname@1.0.0" },
          { url: DOWN_URL, live: false, serverInfo: null },
        ].sort((a, b) => a.url.localeCompare(b.url)),
      );
      expect((await db.select().from(changes)).filter((c) => c.kind === "remote_down").map((c) => c.serverName)).toEqual(["io.github.test/down"]);
    } finally {
      mcp.state.name = "test-weather";
      await gone.close();
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

    it("records one remote_down and one remote_up for the server when it stops and starts answering, not one per listing", async () => {
      // one change per (server, URL): a watcher of the server gets one event for one observed transition
      mcp.state.getStatus = 405;
      const db = await resetDb();
      await loadFixtureCatalog(db, [
        listing({ name: "io.github.both/ways", remotes: [{ type: "streamable-http", url: mcp.url }, { type: "sse", url: mcp.url }] }),
      ]);
      const kinds = async (kind: string) => (await db.select().from(changes)).filter((c) => c.kind === kind).map((c) => c.serverName);
      mcp.state.status = 503;
      try {
        await observeRemotes(db, [mcp.url]);
      } finally {
        mcp.state.status = 200;
      }
      expect(await kinds("remote_down")).toEqual(["io.github.both/ways"]);
      await observeRemotes(db, [mcp.url]);
      expect(await kinds("remote_up")).toEqual(["io.github.both/ways"]);
    });
  });
});
