import { UPSTREAM_MAX_RETRIES, UPSTREAM_TIMEOUT_MS } from "@/lib/config";

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** When the upstream asked us to come back (429 / Retry-After). */
    readonly retryAt: Date | null = null,
  ) {
    super(message);
  }
}

export interface FetchJsonOptions {
  timeoutMs?: number;
  retries?: number;
  headers?: Record<string, string>;
  /** Tests shorten the backoff; production waits 0.5 s, 1 s, 2 s, … */
  backoffMs?: number;
  /** Longest Retry-After we are willing to sleep through inside one run. */
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryAfterMs(res: Response): number | null {
  const h = res.headers.get("retry-after");
  if (!h) return null;
  const secs = Number(h);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(h);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * GET a JSON document with a timeout and bounded retries on 5xx, 429 and network
 * faults. A 429 whose Retry-After is longer than we may wait ends the attempt so
 * the caller can stop and resume on its next run instead of hammering.
 */
export async function fetchJson(url: string, opts: FetchJsonOptions = {}): Promise<unknown> {
  const retries = opts.retries ?? UPSTREAM_MAX_RETRIES;
  const backoff = opts.backoffMs ?? 500;
  const maxWait = opts.maxRetryAfterMs ?? 30_000;
  let lastError: UpstreamError | null = null;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(backoff * 2 ** (attempt - 1));
    let res: Response;
    try {
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? UPSTREAM_TIMEOUT_MS);
      res = await fetch(url, {
        headers: { accept: "application/json", "user-agent": "mcp-preflight (+catalog harvester)", ...opts.headers },
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
        redirect: "follow",
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      lastError = new UpstreamError(`${url}: ${(err as Error).name === "TimeoutError" ? "timed out" : (cause ?? (err as Error).message)}`, null);
      continue;
    }
    if (res.ok) {
      const text = await res.text();
      try {
        return JSON.parse(text);
      } catch {
        lastError = new UpstreamError(`${url}: malformed JSON (${text.length} bytes)`, res.status);
        continue;
      }
    }
    await res.body?.cancel().catch(() => {});
    if (res.status === 429 || res.status >= 500) {
      const wait = retryAfterMs(res);
      const retryAt = wait !== null ? new Date(Date.now() + wait) : null;
      lastError = new UpstreamError(`${url}: HTTP ${res.status}`, res.status, retryAt);
      if (wait !== null) {
        if (wait > maxWait || attempt === retries) throw lastError;
        await sleep(wait);
      }
      continue;
    }
    throw new UpstreamError(`${url}: HTTP ${res.status}`, res.status);
  }
  throw lastError ?? new UpstreamError(`${url}: failed`, null);
}
