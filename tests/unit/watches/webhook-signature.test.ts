import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "@/lib/watches/webhook-signature";
import { newEventId, newWatchId, newWatchSecret } from "@/lib/watches/watch-ids";
import { watchSecretSchema } from "@/lib/schemas/watch";

describe("X-Catalog-Signature", () => {
  it("is sha256= and the hex HMAC-SHA256 of the body keyed with the whole secret string", () => {
    // independent vector: printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
    expect(signWebhookBody('{"a":1}', "whsec_test")).toBe("sha256=51426af50a41dd7ff2cd3f116594734766d4018d15d6fb07169aee5d2959adf5");
  });

  it("verifies the exact bytes only", () => {
    const body = Buffer.from(JSON.stringify({ id: "evt_x", type: "remote_down", data: { before: null, after: { live: false } } }));
    const secret = newWatchSecret();
    const sig = signWebhookBody(body, secret);
    expect(verifyWebhookSignature(body, sig, secret)).toBe(true);
    for (let i = 0; i < body.length; i += 7) {
      const altered = Buffer.from(body);
      altered[i] ^= 1;
      expect(verifyWebhookSignature(altered, sig, secret)).toBe(false);
    }
    expect(verifyWebhookSignature(body, sig, newWatchSecret())).toBe(false);
    expect(verifyWebhookSignature(body, sig.toUpperCase(), secret)).toBe(false);
    expect(verifyWebhookSignature(body, sig.slice(0, -1), secret)).toBe(false);
    expect(verifyWebhookSignature(body, null, secret)).toBe(false);
  });

  it("uses prefixed random ids and secrets", () => {
    expect(newWatchId()).toMatch(/^wat_[0-9a-z]{16}$/);
    expect(newEventId()).toMatch(/^evt_[0-9a-z]{20}$/);
    const s = newWatchSecret();
    expect(watchSecretSchema.parse(s)).toBe(s);
    expect(new Set(Array.from({ length: 200 }, newWatchId)).size).toBe(200);
  });
});
