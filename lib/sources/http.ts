import { setTimeout as delay } from "node:timers/promises";
import { UPSTREAM_MAX_RETRIES, upstreamTimeoutMs, upstreamUserAgent } from "@/lib/config";
import { fetchPublic, OutboundBlockedError } from "@/lib/net/fetch-public";
import { readCapped } from "@/lib/net/read-capped";
import { storableJson, storableText } from "@/lib/db/storable-text";

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** When the upstream asked us to come back (429 / Retry-After / rate-limit reset). */
    readonly retryAt: Date | null = null,
  ) {
    super(message);
  }
}

/** The upstream told us to stop until retryAt: the caller stops this source and resumes on a later run. */
export class RateLimitedError extends UpstreamError {
  constructor(message: string, status: number, retryAt: Date) {
    super(message, status, retryAt);
  }
}

/**
 * The caller stopped (told to, or its deadline passed) before an answer: the request, its retry or the wait before
 * it was not made. No word from the upstream: the caller gives the item back untouched, not as a failure.
 */
export class StoppedError extends UpstreamError {
  constructor(
    message: string,
    readonly reason: "aborted" | "deadline",
  ) {
    super(message, null);
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
  /** Epoch ms (a harvest run's deadline) past which no request is sent, none retried and no wait lasts. */
  deadline?: number | null;
  /** Called once per HTTP request sent (retries included), for call accounting. */
  onCall?: () => void;
  /** Largest answer read (UPSTREAM_MAX_BODY_BYTES unless a test asks for less). */
  maxBodyBytes?: number;
}

export interface UpstreamRequestOptions extends FetchJsonOptions {
  method?: string;
  body?: string;
  /** Parse the body as JSON; a malformed body is retried like a 5xx. */
  json?: boolean;
  /** Read 403/429 as GitHub does, secondary limits included (githubRateLimitWaitMs). */
  githubRateLimits?: boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** The final URL after redirects. */
  url: string;
  redirected: boolean;
  text: string;
  /** Parsed body when `json` was asked and the status is 2xx. */
  body?: unknown;
}

/** Why no further request may be sent now (StoppedError), or null. */
function stopped(url: string, opts: FetchJsonOptions, what: string): StoppedError | null {
  if (opts.signal?.aborted) return new StoppedError(`${url}: ${what}, the caller stopped`, "aborted");
  if (opts.deadline != null && Date.now() >= opts.deadline) return new StoppedError(`${url}: ${what}, the run's deadline passed`, "deadline");
  return null;
}

/**
 * Waits `ms` before a retry, but no longer than the caller: a stop ends the wait at once, and the deadline ends it
 * there (a 30 s Retry-After per item in flight kept a run that long past both). Throws StoppedError when either
 * came first.
 */
async function pause(url: string, opts: FetchJsonOptions, ms: number): Promise<void> {
  const until = Math.min(Date.now() + ms, opts.deadline ?? Infinity);
  await delay(Math.max(0, until - Date.now()), undefined, { signal: opts.signal }).catch(() => {});
  const stop = stopped(url, opts, "not retried");
  if (stop) throw stop;
}

function retryAfterMs(headers: Headers, now: number): number | null {
  const h = headers.get("retry-after");
  if (!h) return null;
  const secs = Number(h);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(h);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function resetMs(headers: Headers, now: number): number | null {
  const reset = headers.get("x-ratelimit-reset");
  return reset && Number.isFinite(Number(reset)) ? Math.max(0, Number(reset) * 1000 - now) : null;
}

/** How long the upstream asked us to wait: Retry-After (seconds or a date) or x-ratelimit-reset (epoch seconds). */
export function retryDelayMs(headers: Headers, now = Date.now()): number | null {
  return retryAfterMs(headers, now) ?? resetMs(headers, now);
}


// Without a hint, a rate-limited source waits at least a minute (GitHub's advice for secondary limits).
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

/** How GitHub words a secondary limit (before 2021: "abuse detection mechanism"). */
const GITHUB_SECONDARY_LIMIT = /secondary rate limit|abuse detection/i;

/**
 * GitHub (upstream-apis.md §2.2): a 429, or a 403 that is a primary limit (x-ratelimit-remaining: 0) or a
 * secondary one (remaining above 0, with Retry-After or a message saying so), is a rate limit; a 403 with
 * neither is about the repository itself (a ToS block). Wait for Retry-After, else the reset when the quota
 * is spent, else at least a minute: the reset of an unspent quota says nothing about a secondary limit.
 * Undefined when the answer is not a rate limit.
 */
export function githubRateLimitWaitMs(res: { status: number; headers: Headers }, text: string, now = Date.now()): number | undefined {
  const exhausted = res.headers.get("x-ratelimit-remaining") === "0";
  const secondary = res.headers.has("retry-after") || GITHUB_SECONDARY_LIMIT.test(text);
  if (res.status !== 429 && !(res.status === 403 && (exhausted || secondary))) return undefined;
  return retryAfterMs(res.headers, now) ?? (exhausted ? resetMs(res.headers, now) : null) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
}

/** How long a rate-limited answer asks us to wait (null: no hint); undefined when it is not one. */
function rateLimitWaitMs(res: { status: number; headers: Headers }, text: string, github: boolean): number | null | undefined {
  if (github) return githubRateLimitWaitMs(res, text);
  // a 429 anywhere; what a 403 means is GitHub's own rule, above
  return res.status === 429 ? retryDelayMs(res.headers) : undefined;
}

/**
 * Largest upstream answer read: npm documents of packages with thousands of versions reach tens of MB; past
 * this the answer is an error (the item's old evidence stays, only the attempt moves).
 */
export const UPSTREAM_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * One upstream request with a timeout and bounded retries on network faults,
 * 5xx, rate limits and (when `json`) malformed bodies. Other statuses (2xx, 304,
 * 4xx) are returned for the caller to interpret. A rate limit whose wait is
 * longer than we may sleep throws RateLimitedError at once, so the caller stops
 * and resumes on its next run instead of hammering. Every request goes through
 * fetchPublic (public addresses only).
 */
export async function upstreamRequest(url: string, opts: UpstreamRequestOptions = {}): Promise<UpstreamResponse> {
  const retries = opts.retries ?? UPSTREAM_MAX_RETRIES;
  const backoff = opts.backoffMs ?? 500;
  const maxWait = opts.maxRetryAfterMs ?? 30_000;
  let lastError: UpstreamError | null = null;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0 && !(lastError instanceof RateLimitedError)) await pause(url, opts, backoff * 2 ** (attempt - 1));
    // the caller stopped (a harvest whose client went away) or its deadline passed: nothing is sent
    const stop = stopped(url, opts, attempt > 0 ? "not retried" : "not asked");
    if (stop) throw stop;
    let res: Response;
    let text: string;
    opts.onCall?.();
    try {
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? upstreamTimeoutMs());
      res = await fetchPublic(url, {
        method: opts.method ?? "GET",
        body: opts.body,
        headers: {
          accept: "application/json",
          "user-agent": upstreamUserAgent(),
          ...(opts.body ? { "content-type": "application/json" } : {}),
          ...opts.headers,
        },
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
        redirect: "follow",
      });
      const cap = opts.maxBodyBytes ?? UPSTREAM_MAX_BODY_BYTES;
      const bytes = await readCapped(res, cap);
      // the same answer again would be as large: no retry, and nothing is learned from it
      if (bytes === null) throw new UpstreamError(`${url}: answer over ${cap} bytes, not read`, res.status);
      // what an upstream says is stored, and quoted in stored errors: a NUL in it (or, below, a NUL or lone
      // surrogate a JSON escape spells) would fail the write of its whole chunk, every run (storable-text.ts).
      // Decoded UTF-8 holds no lone surrogate, so only a NUL is looked for here (answers reach tens of MB).
      const decoded = bytes.toString("utf8");
      text = decoded.includes("\u0000") ? storableText(decoded) : decoded;
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      if (err instanceof OutboundBlockedError) throw new UpstreamError(`${url}: ${err.message}`, null);
      if (opts.signal?.aborted) throw new StoppedError(`${url}: no answer, the caller stopped`, "aborted");
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const why = e.name === "TimeoutError" || e.name === "AbortError" ? "timed out" : (e.cause?.code ?? e.cause?.message ?? e.message);
      lastError = new UpstreamError(`${url}: ${why}`, null);
      continue;
    }
    const wait = rateLimitWaitMs(res, text, opts.githubRateLimits ?? false);
    if (wait !== undefined) {
      const retryAt = new Date(Date.now() + (wait ?? DEFAULT_RATE_LIMIT_WAIT_MS));
      lastError = new RateLimitedError(`${url}: HTTP ${res.status} (rate limited until ${retryAt.toISOString()})`, res.status, retryAt);
      if (wait === null || wait > maxWait || attempt === retries) {
        if (wait === null && attempt < retries) {
          await pause(url, opts, backoff * 2 ** attempt);
          continue;
        }
        throw lastError;
      }
      await pause(url, opts, wait);
      continue;
    }
    if (res.status >= 500) {
      lastError = new UpstreamError(`${url}: HTTP ${res.status}`, res.status);
      continue;
    }
    const out: UpstreamResponse = { status: res.status, headers: res.headers, url: res.url || url, redirected: res.redirected, text };
    if (opts.json && res.status >= 200 && res.status < 300) {
      try {
        out.body = parseStorableJson(text);
      } catch {
        lastError = new UpstreamError(`${url}: malformed JSON (${text.length} bytes)`, res.status);
        continue;
      }
    }
    return out;
  }
  throw lastError ?? new UpstreamError(`${url}: failed`, null);
}

/** Only a `\u0000` or `\uD800`–`\uDFFF` escape can put either into parsed JSON: other answers are not walked. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/** JSON.parse, with every string and key of the value storable in Postgres (storableJson). */
export function parseStorableJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return UNSTORABLE_ESCAPE.test(text) ? storableJson(value) : value;
}

/**
 * GET a JSON document: retried as upstreamRequest does; any other non-2xx
 * answer throws UpstreamError with its status.
 */
export async function fetchJson(url: string, opts: FetchJsonOptions = {}): Promise<unknown> {
  const res = await upstreamRequest(url, { ...opts, json: true });
  if (res.status < 200 || res.status >= 300) throw new UpstreamError(`${url}: HTTP ${res.status}`, res.status);
  return res.body;
}
