import { trustProxy } from "@/lib/config";
import { socketIp } from "./socket-ip";

/**
 * The caller's address. x-forwarded-for is believed only behind a proxy we run
 * (TRUST_PROXY), otherwise anyone could pick a fresh IP per request and reset
 * the anonymous allowance. Next.js passes the socket address in x-real-ip... only
 * on some platforms, so the fallback is a constant bucket rather than a guess.
 */
export function clientIp(req: { headers: { get(name: string): string | null } }): string {
  if (trustProxy()) {
    const forwarded = forwardedChain(req.headers.get("x-forwarded-for")).at(-1);
    if (forwarded) return forwarded;
    const real = forwardedAddress(req.headers.get("x-real-ip") ?? "");
    if (real) return real;
  }
  // not under scripts/server.mjs in production, every caller shares one bucket rather than naming its own
  return socketIp(req.headers) || "unknown";
}

/**
 * The addresses of an x-forwarded-for header, client first. A proxy appends the address it was reached from,
 * so only the last entry is our proxy's word; anything before it is whatever the client chose to send.
 */
export function forwardedChain(header: string | null): string[] {
  return (header ?? "").split(",").map(forwardedAddress).filter(Boolean);
}

/**
 * The address of one forwarded entry. Some proxies name the client's port too (Azure Application Gateway:
 * `203.0.113.5:51234`, `[2001:db8::1]:51234`): kept, every new connection of a client would be a new caller.
 */
export function forwardedAddress(entry: string): string {
  const s = entry.trim();
  const bracketed = s.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) return bracketed[1];
  const v4WithPort = s.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/);
  return v4WithPort ? v4WithPort[1] : s;
}
