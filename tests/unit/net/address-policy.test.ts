import { describe, expect, it } from "vitest";
import { isPublicAddress } from "@/lib/net/address-policy";
import { parseAllowList } from "@/lib/net/allow-list";

describe("which addresses an outbound request may reach", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254", // cloud metadata
    "100.64.0.1", // CGNAT
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254", // AWS metadata over IPv6
    "ff02::1",
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:169.254.169.254",
    "::ffff:0:7f00:1", // IPv4-translated (SIIT) 127.0.0.1
    "::ffff:0:10.0.0.1",
    "::ffff:0:169.254.169.254",
    "64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254
    "2002:7f00:1::", // 6to4 of 127.0.0.1
    "not-an-ip",
  ])("refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(["8.8.8.8", "1.1.1.1", "140.82.112.3", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::"])("allows %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it("the test-only allow-list takes addresses, CIDR ranges and host names", () => {
    const allow = parseAllowList("127.0.0.1, 10.1.0.0/16, fake.internal, ::1");
    expect(allow.allowsAddress("127.0.0.1")).toBe(true);
    expect(allow.allowsAddress("127.0.0.2")).toBe(false);
    expect(allow.allowsAddress("10.1.200.3")).toBe(true);
    expect(allow.allowsAddress("10.2.0.1")).toBe(false);
    expect(allow.allowsAddress("::1")).toBe(true);
    expect(allow.allowsHost("FAKE.internal")).toBe(true);
    expect(allow.allowsHost("other.internal")).toBe(false);
    expect(parseAllowList("").allowsAddress("127.0.0.1")).toBe(false);
  });
});
