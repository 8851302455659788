import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { livenessTimeoutMs } from "@/lib/config";
import { fetchPublic, OutboundBlockedError } from "@/lib/net/fetch-public";
import { FETCH_BLOCKED_PORTS } from "@/lib/net/blocked-ports";
import { withCappedBody } from "@/lib/net/read-capped";
import { resolverTrouble } from "@/lib/net/resolver-trouble";

/**
 * One liveness probe: MCP initialize, then tools/list (every page).
 * - up: both answered (or the endpoint answered 401/403: up, but closed);
 * - down: the endpoint answered something else (an HTTP error status, a
 *   refused connection, a name that does not resolve, a protocol error);
 * - unreachable: the probe did not get an answer (our timeout, a connection
 *   reset on the way, a transient DNS failure, a name that does not resolve
 *   while no name does on this machine, a refused non-public address, a URL
 *   with a user name or password, which is not sent).
 *   Only attempted_at moves: not answering in time is not evidence of down.
 */
export type ProbeResult =
  | {
      outcome: "up";
      httpStatus: number | null;
      authRequired: boolean;
      toolsHash: string | null;
      toolsCount: number | null;
      serverInfo: string | null;
      protocolVersion: string | null;
    }
  | { outcome: "down"; httpStatus: number | null; error: string }
  | { outcome: "unreachable"; error: string };

type Tool = { name: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; annotations?: unknown; title?: string };

/** sha256 over the RFC 8785 canonical JSON of the tools, sorted by name: stable across key order and page splits. */
export function toolsHash(tools: Tool[]): string {
  const list = tools
    .map((t) => ({
      name: t.name,
      title: t.title ?? null,
      description: t.description ?? null,
      inputSchema: t.inputSchema ?? null,
      outputSchema: t.outputSchema ?? null,
      annotations: t.annotations ?? null,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `sha256:${createHash("sha256").update(canonicalize(list) ?? "[]").digest("hex")}`;
}

const MAX_TOOL_PAGES = 20;

/**
 * The SDK client compiles each listed tool's outputSchema (Ajv) to check the results of tool calls, which the
 * probe never makes: a schema Ajv cannot compile (a $ref it cannot resolve, a pattern in Python's regex
 * syntax) threw out of tools/list, and a server that had answered both calls was recorded down.
 */
const NO_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/**
 * The most one probe reads of the endpoint's answers, all of them together. The SDK client takes each answer whole:
 * without a limit an endpoint (anyone may list one) streamed a gigabyte into the process within the 8 s timeout,
 * sixteen probes at a time. The largest real tool lists are a few hundred KB.
 */
export const LIVENESS_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const TRANSIENT_MESSAGE = /other side closed|socket hang up|ECONNRESET|EPIPE|terminated|timed? ?out/i;
const TRANSIENT_CODES = new Set(["EAI_AGAIN", "ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function causeCode(err: unknown): string | null {
  for (let e = err as { cause?: unknown; code?: unknown } | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) {
    if (typeof e.code === "string") return e.code;
  }
  return null;
}

function blocked(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) if (e instanceof OutboundBlockedError) return true;
  return false;
}

export interface ProbeOptions {
  timeoutMs?: number;
  onCall?: () => void;
  /** The caller stopping (a harvest run told to stop): the probe is cut short, no verdict. */
  signal?: AbortSignal;
  /** Tests: LIVENESS_MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
}

export async function probeRemote(url: string, type: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? livenessTimeoutMs();
  const maxAnswerBytes = opts.maxAnswerBytes ?? LIVENESS_MAX_ANSWER_BYTES;
  // an answer over the limit ends the probe at once (the SDK only reports a failed event stream, and its request
  // would wait for the timeout)
  const overflow = new AbortController();
  const budget = { left: maxAnswerBytes, over: false, onOver: () => overflow.abort() };
  const deadline = AbortSignal.any([...(opts.signal ? [opts.signal] : []), AbortSignal.timeout(timeoutMs), overflow.signal]);
  let lastStatus: number | null = null;
  // The SSE transport's event source turns a failed fetch into an SseError holding only its flattened text
  // (no code, no cause): the failure itself is kept here, so a refused address, a transient DNS failure or a
  // name that does not resolve while no name does is judged as it is on streamable HTTP, not as "down"
  let fetchFailure: unknown = null;
  const fetchImpl = async (input: string | URL, init?: RequestInit) => {
    opts.onCall?.();
    let res: Response;
    try {
      res = await fetchPublic(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
    } catch (err) {
      fetchFailure = err;
      throw err;
    }
    res = withCappedBody(res, budget);
    // A streamable-HTTP server's GET is its optional server-to-client stream, opened after initialize was answered:
    // its status is not the endpoint's answer to the probe. A server without a stream answers it 405, as the
    // transport spec allows; one that wants credentials for the stream alone answers 401, and taken as the answer
    // of a tools/list that then got no HTTP answer at all, that made "up, auth required" of no answer.
    if (!(type !== "sse" && (init?.method ?? "GET") === "GET")) lastStatus = res.status;
    return res;
  };
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { outcome: "unreachable", error: `not a URL: ${url}` };
  }
  // fetch refuses to send such a URL: the endpoint is never asked, which says nothing about it
  if (target.username || target.password) return { outcome: "unreachable", error: "not probed: the URL carries a user name or password, which fetch does not send" };
  // nor connect to one of the Fetch standard's bad ports (mail, IRC, X11, …): it fails before any socket
  if (FETCH_BLOCKED_PORTS.has(target.port)) return { outcome: "unreachable", error: `not probed: port ${target.port} is one HTTP clients never connect to (the Fetch standard's bad ports)` };
  const transport: Transport =
    type === "sse" ? new SSEClientTransport(target, { fetch: fetchImpl }) : new StreamableHTTPClientTransport(target, { fetch: fetchImpl });
  const client = new Client({ name: "mcp-preflight-liveness", version: "1" }, { capabilities: {}, jsonSchemaValidator: NO_VALIDATION });
  const timedOut = new Promise<never>((_, reject) => {
    const onAbort = () =>
      reject(Object.assign(new Error(opts.signal?.aborted ? "stopped before an answer" : `no answer within ${timeoutMs} ms`), { name: "TimeoutError" }));
    if (deadline.aborted) onAbort();
    else deadline.addEventListener("abort", onAbort, { once: true });
  });
  timedOut.catch(() => {});
  try {
    const run = async () => {
      await client.connect(transport, { timeout: timeoutMs });
      const tools: Tool[] = [];
      let cursor: string | undefined;
      // a server that offers no tools (resources or prompts only) declares no `tools` capability and answers
      // tools/list "method not found": it is up, with no tools, not down
      const offersTools = Boolean(client.getServerCapabilities()?.tools);
      // A list not read to its end (a cursor named twice, or still one after MAX_TOOL_PAGES pages) is not the
      // server's tool list: no hash, no count (the last list seen is kept), rather than one page counted 20
      // times or the first pages of many told to watchers as its tools.
      let complete = !offersTools;
      const cursors = new Set<string>();
      for (let page = 0; offersTools && page < MAX_TOOL_PAGES; page++) {
        const res = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
        tools.push(...(res.tools as Tool[]));
        cursor = res.nextCursor;
        if (!cursor) {
          complete = true;
          break;
        }
        if (cursors.has(cursor)) break;
        cursors.add(cursor);
      }
      const info = client.getServerVersion();
      return {
        outcome: "up" as const,
        httpStatus: lastStatus,
        authRequired: false,
        toolsHash: complete ? toolsHash(tools) : null,
        toolsCount: complete ? tools.length : null,
        serverInfo: info ? `${info.name}@${info.version}` : null,
        protocolVersion: (transport as { protocolVersion?: string }).protocolVersion ?? null,
      };
    };
    return await Promise.race([run(), timedOut]);
  } catch (err) {
    const e = err as Error;
    // an SseError without an HTTP status is the event source's report of a failed fetch (or of a stream that ended)
    const failure = err instanceof SseError && typeof err.code !== "number" && fetchFailure ? fetchFailure : err;
    if (blocked(failure)) return { outcome: "unreachable", error: `refused: ${e.message}` };
    // not read, as an upstream answer over its limit is not: no verdict (the endpoint may well serve MCP)
    if (budget.over) return { outcome: "unreachable", error: `its answers are over ${maxAnswerBytes} bytes, not read` };
    const timedOutNow = e.name === "TimeoutError" || e.name === "AbortError" || deadline.aborted || /timed? ?out/i.test(e.message);
    // the status the failure itself carries; an earlier answer's status only when the probe did not time out
    // (a timeout is no answer, whatever came before it)
    const status =
      err instanceof StreamableHTTPError && typeof err.code === "number" && err.code >= 100
        ? err.code
        : err instanceof SseError && typeof err.code === "number" && err.code >= 100
          ? err.code
          : !timedOutNow && lastStatus && lastStatus >= 400
            ? lastStatus
            : null;
    if (status === 401 || status === 403) {
      return { outcome: "up", httpStatus: status, authRequired: true, toolsHash: null, toolsCount: null, serverInfo: null, protocolVersion: null };
    }
    // a throttled endpoint answered, but not whether it serves MCP: no verdict (docs/harvester.md, as for
    // every upstream's 429), rather than flipping it down and up with each wave of traffic
    if (status === 429) return { outcome: "unreachable", error: "HTTP 429 (rate limited)" };
    if (status && status >= 400) return { outcome: "down", httpStatus: status, error: `HTTP ${status}` };
    const code = causeCode(failure);
    if (opts.signal?.aborted) return { outcome: "unreachable", error: "stopped before an answer" };
    if (timedOutNow) return { outcome: "unreachable", error: `timed out after ${timeoutMs} ms` };
    // transient faults on the way (ours or the network's) say nothing about the endpoint
    if (code && TRANSIENT_CODES.has(code)) return { outcome: "unreachable", error: code };
    // the SSE transport reports fetch failures as text only
    if (!code && TRANSIENT_MESSAGE.test(e.message)) return { outcome: "unreachable", error: e.message.slice(0, 300) };
    // a name that does not resolve is the remote's fault only while this machine resolves names at all
    if (code === "ENOTFOUND" || code === "ENODATA") {
      const trouble = await resolverTrouble();
      if (trouble) return { outcome: "unreachable", error: `${code}, but ${trouble}: this machine's name resolution is failing, no verdict` };
    }
    if (code) return { outcome: "down", httpStatus: null, error: code };
    return { outcome: "down", httpStatus: lastStatus, error: e.message.slice(0, 300) };
  } finally {
    await client.close().catch(() => {});
  }
}

/** The transports the probe speaks, in the order they are tried for a URL listed with several. */
const PROBED_TRANSPORTS = ["streamable-http", "sse"] as const;

/**
 * One endpoint as its listings name it. Observations are per URL, and a server may list the same URL once per
 * transport (`streamable-http` and `sse`): the URL is up when it answers on any of them, so they are tried in
 * turn (streamable HTTP first) until one answers. It is down only when every listed transport said so; when
 * none answered and one got no verdict (a timeout), there is no verdict, since a transport mismatch (a 405 to
 * the other transport's request) says nothing about the endpoint. `type` is the transport of the result kept.
 */
export async function probeListedRemote(url: string, types: readonly string[], opts: ProbeOptions = {}): Promise<ProbeResult & { type: string }> {
  const listed = PROBED_TRANSPORTS.filter((t) => types.includes(t));
  const order = listed.length ? listed : [types[0] ?? "streamable-http"];
  const results: (ProbeResult & { type: string })[] = [];
  for (const type of order) {
    const r = { ...(await probeRemote(url, type, opts)), type };
    if (r.outcome === "up") return r;
    results.push(r);
    if (opts.signal?.aborted) break; // a stopped caller tries no other transport
  }
  return results.find((r) => r.outcome !== "down") ?? results[0];
}
