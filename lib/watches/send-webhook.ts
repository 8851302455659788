import { fetchPublic, OutboundBlockedError } from "@/lib/net";
import { DELIVERY_RESPONSE_EXCERPT_BYTES, siteUrl } from "@/lib/config";
import { signWebhookBody } from "./webhook-signature";

/** What one attempt came to, as recorded in watch_delivery_attempts. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  body: string;
  secret: string;
  eventId: string;
  kind: string;
  watchId: string;
}

/** Answers larger than this are not read to the end (the connection is dropped instead). */
const MAX_READ_BYTES = 64 * 1024;

/**
 * The start of the receiver's answer, for the attempt log. Whatever stops the read (the timeout, a reset) ends
 * the excerpt, never the attempt: the status line already answered, and a 2xx whose body trickles past the
 * timeout is an accepted event, not a failure to send again.
 */
async function readExcerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let kept = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      await reader.cancel().catch(() => {});
      break;
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (kept < DELIVERY_RESPONSE_EXCERPT_BYTES) {
      const part = value.subarray(0, DELIVERY_RESPONSE_EXCERPT_BYTES - kept);
      parts.push(part);
      kept += part.byteLength;
    }
    if (size > MAX_READ_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  const text = Buffer.concat(parts).toString("utf8");
  return text || null;
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `timeout: no answer within ${timeoutMs} ms`;
  if (err instanceof OutboundBlockedError) return `blocked: ${err.message}`;
  const cause = e?.cause ? `: ${e.cause.code ?? e.cause.message ?? String(e.cause)}` : "";
  return `${e?.message ?? String(err)}${cause}`;
}

/**
 * One POST of one event (DESIGN §8): signed body, the four X-Catalog headers,
 * through fetchPublic (public addresses only, checked after DNS on every
 * connection), no redirect followed (a 3xx is a failure), `timeoutMs` for the
 * whole exchange. 2xx is success; anything else is a failure to retry.
 */
export async function sendWebhook(req: WebhookRequest, timeoutMs: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (o: Omit<AttemptOutcome, "durationMs">): AttemptOutcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
  try {
    const res = await fetchPublic(req.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": `mcp-preflight-webhooks/1 (+${siteUrl()})`,
        "x-catalog-event": req.kind,
        "x-catalog-signature": signWebhookBody(req.body, req.secret),
        "x-catalog-watch-id": req.watchId,
        "x-catalog-delivery": req.eventId,
      },
      body: req.body,
    });
    const response = await readExcerpt(res);
    if (res.status >= 200 && res.status < 300) return done({ ok: true, statusCode: res.status, error: null, response });
    const error =
      res.status >= 300 && res.status < 400
        ? `redirect not followed: HTTP ${res.status}${res.headers.get("location") ? ` to ${res.headers.get("location")}` : ""}`
        : `HTTP ${res.status}`;
    return done({ ok: false, statusCode: res.status, error, response });
  } catch (err) {
    return done({ ok: false, statusCode: null, error: describeFailure(err, timeoutMs), response: null });
  }
}
