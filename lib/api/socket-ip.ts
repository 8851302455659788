/**
 * The header through which scripts/server.mjs tells route handlers the caller's socket address (Next.js does not
 * pass it on). The server deletes whatever a client sent under this name before setting it.
 */
export const SOCKET_IP_HEADER = "x-mcp-preflight-socket-ip";

/** Set by scripts/server.mjs in its own process: the header above is its word, not a client's. */
export const SOCKET_IP_SERVER_FLAG = "MCP_PREFLIGHT_SOCKET_IP_HEADER";

/**
 * Whether the socket header can be believed. Under scripts/server.mjs (npm start, the benches, the e2e tests)
 * it is the server's; under `next dev` and in tests it is a developer's own. A production server started any
 * other way (`next start`) passes every header as the client sent it, so there the header is anyone's claim:
 * believed, a client could pick a fresh address per request (resetting the anonymous allowances) or call
 * itself 127.0.0.1 and read the dev mailbox's sign-in links.
 */
export function socketIpHeaderTrusted(): boolean {
  return process.env[SOCKET_IP_SERVER_FLAG] === "1" || process.env.NODE_ENV !== "production";
}

/** The caller's socket address as scripts/server.mjs reported it; null when it did not (or cannot be believed). */
export function socketIp(headers: { get(name: string): string | null }): string | null {
  return socketIpHeaderTrusted() ? headers.get(SOCKET_IP_HEADER) : null;
}
