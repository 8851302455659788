import dns from "node:dns/promises";
import { isIP } from "node:net";
import { registryUrl } from "@/lib/config";

const CHECK_EVERY_MS = 60_000;
let last: { host: string; at: number; trouble: string | null } | null = null;

/**
 * Null when this machine resolves names, else what failed. Asked of the registry's host, a name the service
 * must resolve anyway. A remote whose name does not resolve is down only while other names do: on a machine
 * whose resolver is broken or absent (offline, a proxy-only network) every remote would otherwise be recorded
 * down, and every watcher told so. An IP-literal registry (a local fake) is no canary: names are taken to
 * resolve. One look-up a minute at most.
 */
export async function resolverTrouble(now = Date.now()): Promise<string | null> {
  const host = new URL(registryUrl()).hostname.replace(/^\[|\]$/g, "");
  if (last && last.host === host && now - last.at < CHECK_EVERY_MS) return last.trouble;
  let trouble: string | null = null;
  if (!isIP(host)) {
    try {
      await dns.lookup(host);
    } catch (err) {
      trouble = `${host} does not resolve either (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
    }
  }
  last = { host, at: now, trouble };
  return trouble;
}
