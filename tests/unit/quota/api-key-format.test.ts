import { describe, expect, it } from "vitest";
import {
  apiKeyChecksum,
  apiKeyPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  sameDigest,
} from "@/lib/accounts/api-key-format";

describe("API key format (DESIGN §3)", () => {
  it("is catk_ + 32 base62 characters + a 6-character checksum", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^catk_[0-9A-Za-z]{38}$/);
    expect(key.slice(-6)).toBe(apiKeyChecksum(key.slice(0, -6)));
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it("draws a fresh random body every time", () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it.each([
    ["a changed character", (k: string) => k.slice(0, 10) + (k[10] === "a" ? "b" : "a") + k.slice(11)],
    ["a changed checksum", (k: string) => k.slice(0, -1) + (k.endsWith("0") ? "1" : "0")],
    ["another prefix", (k: string) => "cakt_" + k.slice(5)],
    ["one character short", (k: string) => k.slice(0, -1)],
    ["a non-base62 character", (k: string) => k.slice(0, 8) + "-" + k.slice(9)],
    ["surrounding text", (k: string) => ` ${k}`],
  ])("rejects a key with %s offline", (_l, mutate) => {
    expect(isWellFormedApiKey(mutate(generateApiKey()))).toBe(false);
  });

  it("stores a SHA-256 hex digest and an 11-character visible prefix", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 11));
    expect(sameDigest(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameDigest(hashApiKey(key), hashApiKey(generateApiKey()))).toBe(false);
    expect(sameDigest("", "")).toBe(false);
  });

  it("computes the checksum as CRC32 in base62 (known value)", () => {
    // CRC32("catk_") = 0xb50f5463 (zlib.crc32 agrees)
    let n = 0xb50f5463;
    let s = "";
    const b = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    while (n) {
      s = b[n % 62] + s;
      n = Math.floor(n / 62);
    }
    expect(apiKeyChecksum("catk_")).toBe(s.padStart(6, "0"));
  });
});
