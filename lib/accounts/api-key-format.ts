import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  API_KEY_CHECKSUM_LENGTH,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  API_KEY_VISIBLE_LENGTH,
} from "@/lib/config";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}[0-9A-Za-z]{${API_KEY_CHECKSUM_LENGTH}}$`,
);

let CRC_TABLE: Uint32Array | undefined;
function crc32(text: string): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(n: number, width: number): string {
  let out = "";
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(width, "0");
}

/** Uniform base62 characters from the CSPRNG (rejection sampling, no modulo bias). */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** The checksum lets a scanner (or this service) reject look-alike strings offline, GitHub-style. */
export function apiKeyChecksum(body: string): string {
  return base62(crc32(body), API_KEY_CHECKSUM_LENGTH);
}

/** A new key: `catk_` + 32 base62 random characters + 6-character CRC32 checksum (DESIGN §3). */
export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
  return body + apiKeyChecksum(body);
}

/** Shape and checksum; says nothing about whether the key exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, key.length - API_KEY_CHECKSUM_LENGTH);
  return apiKeyChecksum(body) === key.slice(-API_KEY_CHECKSUM_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The visible part stored beside the hash, e.g. `catk_3fK9aQ`. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_VISIBLE_LENGTH);
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
