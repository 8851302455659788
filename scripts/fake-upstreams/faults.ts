import type { IncomingMessage, ServerResponse } from "node:http";

/** Faults the fake upstreams can inject, per source, for the next `count` requests. */
export type FaultKind = "500" | "429" | "secondary" | "secondary-200" | "timeout" | "malformed" | "reset" | "nul-400";

export interface FaultRule {
  /** registry | github | npm | pypi | osv | mcp */
  source: string;
  kind: FaultKind;
  /** How many requests it affects; Infinity until cleared. */
  count: number;
  /** Only requests whose path contains this. */
  pathIncludes?: string;
  /**
   * For 429: seconds until the reset, sent as Retry-After and x-ratelimit-reset. For `secondary` (GitHub's
   * secondary limit: 403, quota not spent): sent as Retry-After; without it only the message says so.
   */
  resetAfterSec?: number;
}

export class FaultInjector {
  private rules: FaultRule[] = [];
  /** Faults actually served, by source and kind. */
  readonly served: Record<string, number> = {};

  add(rule: Omit<FaultRule, "count"> & { count?: number }): this {
    this.rules.push({ count: 1, ...rule });
    return this;
  }

  clear(): void {
    this.rules = [];
  }

  /** Applies a matching fault to the response; true when the request was answered (or dropped) by it. */
  apply(source: string, req: IncomingMessage, res: ServerResponse): boolean {
    const rule = this.rules.find((r) => r.source === source && r.count > 0 && (!r.pathIncludes || (req.url ?? "").includes(r.pathIncludes)));
    if (!rule) return false;
    rule.count--;
    const key = `${source}:${rule.kind}`;
    this.served[key] = (this.served[key] ?? 0) + 1;
    switch (rule.kind) {
      case "500":
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "injected fault" }));
        break;
      case "429": {
        const secs = rule.resetAfterSec ?? 60;
        res
          .writeHead(429, {
            "content-type": "application/json",
            "retry-after": String(secs),
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + secs),
          })
          .end(JSON.stringify({ message: "rate limited (injected)" }));
        break;
      }
      case "secondary":
        res
          .writeHead(403, {
            "content-type": "application/json",
            ...(rule.resetAfterSec !== undefined ? { "retry-after": String(rule.resetAfterSec) } : {}),
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "4990",
            "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 3600),
          })
          .end(
            JSON.stringify({
              message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
              documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
            }),
          );
        break;
      case "secondary-200":
        // GraphQL may report a secondary limit with HTTP 200 (upstream-apis.md §2.3): no data, an error saying so
        res
          .writeHead(200, {
            "content-type": "application/json",
            ...(rule.resetAfterSec !== undefined ? { "retry-after": String(rule.resetAfterSec) } : {}),
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "4990",
            "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 3600),
          })
          .end(JSON.stringify({ errors: [{ message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." }] }));
        break;
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" }).end('{"truncated": [1, 2');
        break;
      case "nul-400":
        // a refusal whose text (quoted in the error we store) holds a NUL byte, as a proxy's binary page may
        res.writeHead(400, { "content-type": "text/plain" }).end("bad\u0000request");
        break;
      case "reset":
        req.socket.destroy();
        break;
      case "timeout":
        // never answer; the client's timeout ends it
        req.socket.setTimeout(0);
        break;
    }
    return true;
  }
}
