import { BlockList, isIP } from "node:net";

/**
 * Addresses an outbound request must never reach (anchors C5): loopback,
 * RFC 1918, link-local (cloud metadata lives at 169.254.169.254), CGNAT,
 * unique-local, multicast, reserved and unspecified ranges, in IPv4 and IPv6,
 * plus IPv4 addresses smuggled inside IPv6 (mapped, translated, NAT64, 6to4).
 */
const DENIED_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network", includes 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes broadcast
];

const DENIED_V6: [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local (AWS metadata fd00:ec2::254 is in here)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8], // multicast
];

const denied = new BlockList();
for (const [net, prefix] of DENIED_V4) denied.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of DENIED_V6) denied.addSubnet(net, prefix, "ipv6");

/** The eight hextets of an IPv6 address (zone dropped, a trailing dotted quad folded in), or null. */
export function expandV6(ip: string): number[] | null {
  let s = ip.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  // a trailing dotted quad becomes two hextets
  const quad = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (quad) {
    const o = quad[1].split(".").map(Number);
    s = s.slice(0, -quad[1].length) + `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = s.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail ? tail.split(":") : [];
  const fill = s.includes("::") ? 8 - h.length - t.length : 0;
  const parts = [...h, ...Array(fill).fill("0"), ...t].map((x) => parseInt(x || "0", 16));
  return parts.length === 8 && parts.every((n) => Number.isFinite(n)) ? parts : null;
}

/**
 * The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16), if any.
 */
function embeddedV4(ip: string): string | null {
  const p = expandV6(ip);
  if (!p) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (p.slice(0, 5).every((x) => x === 0) && (p[5] === 0xffff || p[5] === 0)) return v4(p[6], p[7]); // mapped / compatible
  if (p.slice(0, 4).every((x) => x === 0) && p[4] === 0xffff && p[5] === 0) return v4(p[6], p[7]); // translated (SIIT, RFC 2765)
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return v4(p[6], p[7]); // NAT64
  if (p[0] === 0x2002) return v4(p[1], p[2]); // 6to4
  return null;
}

/** True when the address is publicly routable (not in any denied range). */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !denied.check(ip, "ipv4");
  if (family === 6) {
    const inner = embeddedV4(ip);
    if (inner && (inner !== "0.0.0.0" || ip !== "::")) {
      if (!isPublicAddress(inner)) return false;
    }
    return !denied.check(ip.replace(/%.*$/, ""), "ipv6");
  }
  return false;
}
