import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface FakeMcpEndpoint {
  tools: { name: string; description: string }[];
  /** Answer every request with this HTTP status instead of MCP (e.g. 500, 404, 401). */
  status?: number;
}

/**
 * MCP servers built with the SDK: streamable HTTP (stateless, JSON answers) at
 * /mcp/{id} and the legacy SSE transport at /sse/{id} (+ /sse/{id}/messages).
 */
export class FakeMcp {
  readonly endpoints = new Map<string, FakeMcpEndpoint>();
  private sse = new Map<string, SSEServerTransport>();
  calls = 0;

  set(id: string, e: FakeMcpEndpoint): void {
    this.endpoints.set(id, e);
  }

  private server(id: string, e: FakeMcpEndpoint): Server {
    const s = new Server({ name: `fake-${id}`, version: "1.0.0" }, { capabilities: { tools: {} } });
    s.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: e.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object" as const, properties: {} } })),
    }));
    return s;
  }

  async handle(path: string, req: IncomingMessage, res: ServerResponse, body: string, baseUrl: string): Promise<boolean> {
    const m = /^\/(mcp|sse)\/([^/]+)(\/messages)?$/.exec(path);
    if (!m) return false;
    this.calls++;
    const [, kind, id, messages] = m;
    const e = this.endpoints.get(id);
    if (!e) return res.writeHead(404, { "content-type": "text/plain" }).end("no such endpoint"), true;
    if (e.status) return res.writeHead(e.status, { "content-type": "text/plain" }).end(`status ${e.status}`), true;
    const parsed = body ? safeJson(body) : undefined;
    if (kind === "mcp") {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = this.server(id, e);
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, parsed);
      return true;
    }
    if (!messages && req.method === "GET") {
      const transport = new SSEServerTransport(`${baseUrl}/sse/${id}/messages`, res);
      this.sse.set(transport.sessionId, transport);
      res.on("close", () => this.sse.delete(transport.sessionId));
      await this.server(id, e).connect(transport);
      return true;
    }
    if (messages && req.method === "POST") {
      const sid = new URL(req.url ?? "/", "http://x").searchParams.get("sessionId") ?? "";
      const transport = this.sse.get(sid);
      if (!transport) return res.writeHead(404).end("unknown session"), true;
      await transport.handlePostMessage(req, res, parsed);
      return true;
    }
    res.writeHead(405).end();
    return true;
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
