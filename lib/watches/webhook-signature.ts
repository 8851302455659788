import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * X-Catalog-Signature (DESIGN §8): `sha256=` + lowercase hex HMAC-SHA256 of the
 * exact body bytes, keyed with the whole watch secret string (`whsec_…`, prefix
 * included, as UTF-8).
 */
export function signWebhookBody(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Constant-time check of a signature header against a body (what docs/webhooks.md shows receivers). */
export function verifyWebhookSignature(body: string | Uint8Array, header: string | null | undefined, secret: string): boolean {
  const expected = Buffer.from(signWebhookBody(body, secret));
  const given = Buffer.from(String(header ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
