import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ENGINE_VERSION } from "@/lib/engine/engine-version";
import { registerTools } from "./register-tools";

/**
 * The tools /mcp offers, exactly as an MCP client sees them (tools/list): a fresh server with every
 * registered tool, asked over an in-memory transport. The /docs page lists these, so it can never name a
 * tool the endpoint lacks or miss one that was added.
 */
export function listMcpTools(): Promise<Tool[]> {
  // tools are registered at start-up and never change while a process runs
  listed ??= readTools().catch((err) => {
    listed = undefined;
    throw err;
  });
  return listed;
}

let listed: Promise<Tool[]> | undefined;

async function readTools(): Promise<Tool[]> {
  const server = new McpServer({ name: "mcp-preflight", version: ENGINE_VERSION });
  registerTools(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "mcp-preflight-docs", version: ENGINE_VERSION });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } finally {
    await client.close();
    await server.close();
  }
}
