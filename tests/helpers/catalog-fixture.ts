import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { creditWallets } from "@/lib/db/schema";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
export const LISTED_AT = "2026-03-01T00:00:00.000Z";

/** A registry row in the current envelope shape. */
export function listing(server: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return {
    server: { $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json", version: "1.0.0", description: "test server", ...server },
    _meta: { [OFFICIAL]: { status: "active", publishedAt: "2026-02-01T00:00:00Z", updatedAt: LISTED_AT, isLatest: true, ...meta } },
  };
}

/** A small catalog covering the shapes preflight cares about. */
export const FIXTURE_SERVERS = [
  listing({
    name: "io.github.acme/weather",
    title: "Weather",
    repository: { url: "https://github.com/acme/mcp-weather", source: "github" },
    packages: [{ registryType: "npm", identifier: "@acme/mcp-weather", version: "1.4.2", transport: { type: "stdio" } }],
    remotes: [{ type: "streamable-http", url: "https://mcp.acme.example/mcp" }],
  }),
  listing({ name: "com.example/remote-only", remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp" }] }),
  listing({ name: "io.github.bob/no-repo", packages: [{ registryType: "pypi", identifier: "bob-mcp", version: "0.1.0", transport: { type: "stdio" } }] }),
  listing({ name: "io.github.carol/old", repository: { url: "https://github.com/carol/old", source: "github" } }, { status: "deprecated" }),
];

export async function loadFixtureCatalog(db: Db, extra: unknown[] = []) {
  await ingestDump(db, [...FIXTURE_SERVERS, ...extra], "fixture", new Date(LISTED_AT));
}

export async function keyedAccount(db: Db, opts: { credits?: number; tier?: "registered" | "pro"; email?: string } = {}) {
  const acc = await createAccount({ email: opts.email ?? `u${Math.random().toString(36).slice(2)}@example.test`, tier: opts.tier }, { db });
  if (opts.credits !== undefined) {
    await db.update(creditWallets).set({ grantRemaining: opts.credits, purchasedRemaining: 0 }).where(eq(creditWallets.accountId, acc.id));
  }
  const k = await createApiKey(acc.id, { db });
  return { accountId: acc.id, key: k.key, keyId: k.keyId };
}

export async function walletRemaining(db: Db, accountId: string): Promise<number> {
  const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, accountId));
  return w.grantRemaining + w.purchasedRemaining;
}

/** Calls a route handler as an HTTP client at `ip` would. */
export function request(
  path: string,
  init: { method?: string; body?: unknown; key?: string; ip?: string; headers?: Record<string, string> } = {},
): Request {
  const headers: Record<string, string> = { "x-mcp-preflight-socket-ip": init.ip ?? "198.51.100.10", ...init.headers };
  if (init.key) headers["x-api-key"] = init.key;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`http://localhost${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
}
