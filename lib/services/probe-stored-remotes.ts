import { createHash } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Db } from "@/lib/db/client";
import { remoteObservations, serverRemotes } from "@/lib/db/schema";
import { fetchPublic, OutboundBlockedError } from "@/lib/net";
import canonicalize from "canonicalize";

const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeOutcome {
  url: string;
  type: string;
  /** true up, false down; null when no verdict could be reached (we were not allowed to try). */
  live: boolean | null;
  httpStatus: number | null;
  toolsHash: string | null;
  toolsCount: number | null;
  authRequired: boolean;
  error: string | null;
}

function statusOf(err: unknown): number | null {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === "number" && e.code >= 100 && e.code < 600) return e.code;
    const m = /HTTP (\d{3})|status(?: code)? (\d{3})|\((\d{3})\)/i.exec(String((e as Error).message ?? ""));
    if (m) return Number(m[1] ?? m[2] ?? m[3]);
  }
  return null;
}

/**
 * One MCP liveness probe: initialize + tools/list over the listed transport,
 * through fetchPublic so a listed URL can never reach a private address.
 */
export async function probeRemote(url: string, type: string): Promise<ProbeOutcome> {
  const base = { url, type, httpStatus: null, toolsHash: null, toolsCount: null, authRequired: false };
  let lastStatus: number | null = null;
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetchPublic(input instanceof Request ? input.url : input, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    lastStatus = res.status;
    return res;
  };
  const client = new Client({ name: "mcp-preflight-liveness", version: "1" });
  const endpoint = new URL(url);
  const transport =
    type === "sse"
      ? new SSEClientTransport(endpoint, { fetch: recordingFetch as typeof fetch, eventSourceInit: { fetch: recordingFetch as typeof fetch } })
      : new StreamableHTTPClientTransport(endpoint, { fetch: recordingFetch as typeof fetch });
  try {
    await withTimeout(client.connect(transport), PROBE_TIMEOUT_MS);
    const tools = await withTimeout(client.listTools(), PROBE_TIMEOUT_MS);
    const names = tools.tools.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? null }));
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const toolsHash = `sha256:${createHash("sha256").update(canonicalize(names) ?? "[]").digest("hex")}`;
    return { ...base, live: true, httpStatus: lastStatus ?? 200, toolsHash, toolsCount: names.length, error: null };
  } catch (err) {
    const blocked = err instanceof OutboundBlockedError || (err as { cause?: unknown }).cause instanceof OutboundBlockedError;
    if (blocked) return { ...base, live: null, error: (err as Error).message };
    const status = statusOf(err) ?? lastStatus;
    // 401/403: the endpoint answers but wants credentials we do not have: it is up.
    if (status === 401 || status === 403) return { ...base, live: true, httpStatus: status, authRequired: true, error: null };
    return { ...base, live: false, httpStatus: status, error: (err as Error).message.slice(0, 500) };
  } finally {
    await client.close().catch(() => {});
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

/**
 * Probes stored canonical remote URLs (never a URL from the request) and writes
 * their observations. An answered probe (up or down) is an observation; a probe
 * we were not allowed to make moves only attempted_at and keeps the last good
 * values.
 */
export async function probeStoredRemotes(db: Db, urls: string[], now = () => new Date()): Promise<ProbeOutcome[]> {
  if (!urls.length) return [];
  const rows = await db.selectDistinct({ url: serverRemotes.url, type: serverRemotes.type }).from(serverRemotes).where(inArray(serverRemotes.url, urls));
  const typeOf = new Map(rows.map((r) => [r.url, r.type]));
  const outcomes = await Promise.all(urls.filter((u) => typeOf.has(u)).map((u) => probeRemote(u, typeOf.get(u)!)));
  for (const o of outcomes) {
    const at = now();
    const observed = o.live !== null;
    await db
      .insert(remoteObservations)
      .values({
        url: o.url,
        type: o.type,
        live: o.live,
        httpStatus: o.httpStatus,
        toolsHash: o.toolsHash,
        toolsCount: o.toolsCount,
        authRequired: o.authRequired,
        observedAt: observed ? at : null,
        attemptedAt: at,
        lastError: o.error,
      })
      .onConflictDoUpdate({
        target: remoteObservations.url,
        set: observed
          ? {
              live: o.live,
              httpStatus: o.httpStatus,
              // a down probe says nothing new about the tool list: keep the last one
              toolsHash: o.live ? o.toolsHash : sql`${remoteObservations.toolsHash}`,
              toolsCount: o.live ? o.toolsCount : sql`${remoteObservations.toolsCount}`,
              authRequired: o.authRequired,
              observedAt: at,
              attemptedAt: at,
              lastError: o.error,
            }
          : { attemptedAt: at, lastError: o.error },
      });
  }
  return outcomes;
}
