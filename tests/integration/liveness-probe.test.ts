import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeRemote } from "@/lib/sources/liveness";
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

  it("still calls a server that answers its POSTs with an HTTP error down", async () => {
    mcp.state.status = 503;
    try {
      expect(await probeRemote(mcp.url, "streamable-http", { timeoutMs: 3000 })).toMatchObject({ outcome: "down", httpStatus: 503 });
    } finally {
      mcp.state.status = 200;
    }
  });
});
