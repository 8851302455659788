import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach } from "vitest";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/mcp/route";

type Handler = (req: Request) => Promise<Response>;

/**
 * The SDK's own MCP client over streamable HTTP, speaking to a route handler
 * (in-process: its fetch calls the handler) or to a running server's base URL.
 */
export async function connectMcp(target: Handler | string, opts: { key?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { "x-mcp-preflight-socket-ip": opts.ip ?? "192.0.2.50" };
  if (opts.key) headers["x-api-key"] = opts.key;
  const url = new URL(typeof target === "string" ? `${target}/mcp` : "http://localhost/mcp");
  const fetchImpl =
    typeof target === "string"
      ? undefined
      : async (input: string | URL | Request, init?: RequestInit) => {
          // as Next would route it: the given handler takes POSTs, the route's own exports the rest
          const req = new Request(input instanceof Request ? input.url : input, init);
          return req.method === "GET" ? mcpGet(req) : req.method === "DELETE" ? mcpDelete(req) : target(req);
        };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: fetchImpl as typeof fetch | undefined });
  const client = new Client({ name: "mcp-preflight-tests", version: "1" });
  await client.connect(transport);
  return client;
}

/**
 * In-process clients of the /mcp route for one test file, each closed after the test that opened it:
 * `connect` opens one, `keep` takes one a test built itself.
 */
export function mcpClients() {
  let open: Client[] = [];
  afterEach(async () => {
    await Promise.all(open.map((c) => c.close()));
    open = [];
  });
  const keep = (c: Client) => (open.push(c), c);
  return { keep, connect: async (opts: { key?: string; ip?: string } = {}) => keep(await connectMcp(mcpPost, opts)) };
}
