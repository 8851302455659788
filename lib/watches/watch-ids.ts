import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

function base36(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 252) out += ALPHABET[b % 36]; // 252 = 7 × 36: no modulo bias
      if (out.length === length) break;
    }
  }
  return out;
}

/** `wat_` + 16 base36 characters (about 82 bits). */
export const newWatchId = () => `wat_${base36(16)}`;

/** `evt_` + 20 base36 characters: the event id, X-Catalog-Delivery. */
export const newEventId = () => `evt_${base36(20)}`;

/** `whsec_` + base64url of 32 random bytes (Standard Webhooks' secret shape, anchors C3). */
export const newWatchSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

/** The e-mail unsubscribe link's token: 32 random bytes, base64url. */
export const newUnsubscribeToken = () => randomBytes(32).toString("base64url");
