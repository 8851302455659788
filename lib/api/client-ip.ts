import { trustProxy } from "@/lib/config";

/**
 * The caller's address. x-forwarded-for is believed only behind a proxy we run
 * (TRUST_PROXY), otherwise anyone could pick a fresh IP per request and reset
 * the anonymous allowance. Next.js passes the socket address in x-real-ip... only
 * on some platforms, so the fallback is a constant bucket rather than a guess.
 */
export function clientIp(req: Request): string {
  if (trustProxy()) {
    const fwd = req.headers.get("x-forwarded-for");
    if (fwd) return fwd.split(",")[0].trim();
    const real = req.headers.get("x-real-ip");
    if (real) return real.trim();
  }
  const socket = req.headers.get("x-mcp-preflight-socket-ip");
  return socket || "unknown";
}
