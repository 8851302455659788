import { describe, expect, it } from "vitest";
import { allowanceAddress } from "@/lib/quota/allowance-address";

describe("allowanceAddress: what an anonymous allowance counts against", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["unknown", "unknown"],
  ])("%s → %s", (ip, expected) => expect(allowanceAddress(ip)).toBe(expected));
});
