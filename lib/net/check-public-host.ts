import dns from "node:dns/promises";
import { isIP } from "node:net";
import { currentAllowList } from "./allow-list";
import { isPublicAddress } from "./address-policy";

/** Why a host was judged unreachable for outbound requests before any connection. */
export type HostVerdict =
  | { ok: true; addresses: string[] }
  | { ok: false; reason: "private_address" | "not_resolvable"; address?: string; message: string }
  /** DNS did not answer now (a temporary failure): nothing is knowable yet; fetchPublic checks again at connect time. */
  | { ok: true; addresses: []; unresolved: true };

/**
 * The same rule fetchPublic applies at connect time, applied ahead of time (at
 * a webhook's creation): a literal IP must be public, `localhost` names are
 * refused, and a name must resolve only to public addresses. The test-only
 * allow-list (OUTBOUND_ALLOW_HOSTS) applies here as it does there.
 */
export async function checkPublicHost(hostname: string): Promise<HostVerdict> {
  const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  const allow = currentAllowList();
  const permitted = (address: string) => isPublicAddress(address) || allow.allowsAddress(address) || allow.allowsHost(host);
  if (isIP(host)) {
    return permitted(host)
      ? { ok: true, addresses: [host] }
      : { ok: false, reason: "private_address", address: host, message: `${host} is not a public address` };
  }
  if ((host === "localhost" || host.endsWith(".localhost")) && !allow.allowsHost(host)) {
    return { ok: false, reason: "private_address", message: `${host} is a loopback name` };
  }
  let addresses: { address: string }[];
  try {
    addresses = await dns.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") {
      return { ok: false, reason: "not_resolvable", message: `${host} does not resolve to any address` };
    }
    return { ok: true, addresses: [], unresolved: true };
  }
  // "." (the root, "%2e" in a URL) is "" here, for which dns.lookup answers an empty list rather than an error
  if (!addresses.length) return { ok: false, reason: "not_resolvable", message: `${host || hostname} does not resolve to any address` };
  const bad = addresses.find((a) => !permitted(a.address));
  if (bad) return { ok: false, reason: "private_address", address: bad.address, message: `${host} resolves to ${bad.address}, which is not a public address` };
  return { ok: true, addresses: addresses.map((a) => a.address) };
}
