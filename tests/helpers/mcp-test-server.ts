import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * A real MCP server (the SDK's own) over stateless streamable HTTP on a loopback
 * port, for liveness probes in tests. `tools` can be changed between probes;
 * `getStatus` answers the optional GET stream with that status (405: no stream);
 * `stall` names a JSON-RPC method it never answers; `reset` one whose connection it drops unanswered; `onRequest` runs (awaited) before each request is answered;
 * `name` is the serverInfo name its initialize answer gives; `pageSize` answers tools/list that many tools a
 * page (the cursor is the next index), and `loopCursor` makes every page name the same next cursor;
 * `outputSchema` is given as every tool's output schema, as written.
 */
export async function startMcpTestServer(opts: { tools?: string[]; status?: number } = {}) {
  const state: {
    tools: string[];
    status: number;
    getStatus?: number;
    stall?: string;
    reset?: string;
    onRequest?: () => unknown;
    name: string;
    pageSize?: number;
    loopCursor?: boolean;
    outputSchema?: Record<string, unknown>;
  } = {
    tools: opts.tools ?? ["get_forecast"],
    name: "test-weather",
    status: opts.status ?? 200,
  };
  const server = http.createServer(async (req, res) => {
    await state.onRequest?.();
    if (state.status !== 200) {
      res.writeHead(state.status).end();
      return;
    }
    if (req.method === "GET" && state.getStatus) {
      res.writeHead(state.getStatus, { allow: "POST" }).end();
      return;
    }
    const mcp = new McpServer({ name: state.name, version: "1.0.0" });
    for (const name of state.tools) {
      mcp.registerTool(name, { description: `tool ${name}`, inputSchema: { city: z.string() } }, async () => ({ content: [{ type: "text", text: "ok" }] }));
    }
    const { outputSchema } = state;
    const pageSize = state.pageSize ?? (outputSchema ? state.tools.length : undefined);
    if (pageSize && state.tools.length) {
      mcp.server.setRequestHandler(ListToolsRequestSchema, (req) => {
        const from = Number(req.params?.cursor ?? 0);
        const next = state.loopCursor ? "1" : from + pageSize < state.tools.length ? String(from + pageSize) : undefined;
        const tools = state.tools
          .slice(from, from + pageSize)
          .map((name) => ({ name, description: `tool ${name}`, inputSchema: { type: "object" as const, properties: { city: { type: "string" } } }, outputSchema }));
        return next ? { tools, nextCursor: next } : { tools };
      });
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const message = body ? JSON.parse(body) : undefined;
      if (state.stall && message?.method === state.stall) return; // no answer, ever
      if (state.reset && message?.method === state.reset) return void req.socket.destroy(); // no HTTP answer at all
      void transport.handleRequest(req, res, message);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    state,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
