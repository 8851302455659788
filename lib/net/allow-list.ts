import { BlockList, isIP } from "node:net";
import { outboundAllowHosts } from "@/lib/config";

/**
 * The test-only exception to the public-address rule (OUTBOUND_ALLOW_HOSTS):
 * comma-separated IP addresses, CIDR ranges or host names. An address in the
 * list may be reached although it is private; a host name in the list may
 * resolve to anything. Production leaves it empty.
 */
export interface AllowList {
  allowsAddress(ip: string): boolean;
  allowsHost(hostname: string): boolean;
}

export function parseAllowList(spec: string): AllowList {
  const ranges = new BlockList();
  const hosts = new Set<string>();
  for (const raw of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [addr, prefix] = raw.split("/");
    const family = isIP(addr.replace(/^\[|\]$/g, ""));
    if (family) {
      const a = addr.replace(/^\[|\]$/g, "");
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefix !== undefined) ranges.addSubnet(a, Number(prefix), type);
      else ranges.addAddress(a, type);
    } else {
      hosts.add(raw.toLowerCase());
    }
  }
  return {
    allowsAddress: (ip) => {
      const family = isIP(ip);
      return family !== 0 && ranges.check(ip, family === 4 ? "ipv4" : "ipv6");
    },
    allowsHost: (hostname) => hosts.has(hostname.toLowerCase().replace(/^\[|\]$/g, "")),
  };
}

let cached: { spec: string; list: AllowList } | null = null;

/** The allow-list in force, re-read when the setting changes (tests flip it). */
export function currentAllowList(): AllowList {
  const spec = outboundAllowHosts();
  if (!cached || cached.spec !== spec) cached = { spec, list: parseAllowList(spec) };
  return cached.list;
}
