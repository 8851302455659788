import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Prefixed random identifiers (`acc_…`, `key_…`): 16 base36 characters, about 82 bits. */
export function newId(prefix: "acc" | "key"): string {
  let out = "";
  for (const b of randomBytes(24)) {
    if (b < 252) out += ALPHABET[b % 36];
    if (out.length === 16) break;
  }
  return `${prefix}_${out.padEnd(16, "0")}`;
}
