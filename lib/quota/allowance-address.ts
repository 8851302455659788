import { isIP } from "node:net";
import { expandV6 } from "@/lib/net/address-policy";

/**
 * The address an anonymous caller's allowances are counted against. An IPv6 client is normally given a whole
 * /64 and may use any address in it, so counting each address would hand it an unlimited "per IP" allowance:
 * an IPv6 address counts as its /64, and an IPv4-mapped one (::ffff:a.b.c.d) as the IPv4 address it is.
 */
export function allowanceAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const p = expandV6(ip);
  if (!p) return ip;
  if (p.slice(0, 5).every((x) => x === 0) && p[5] === 0xffff) return `${p[6] >> 8}.${p[6] & 255}.${p[7] >> 8}.${p[7] & 255}`;
  return `${p.slice(0, 4).map((x) => x.toString(16)).join(":")}::/64`;
}
