import { describe, expect, it } from "vitest";
import { auditErrorText } from "@/app/audit/audit-error-text";

// The page showed "429 rate_limited: …", "400 invalid_request: the config file cannot be read: …": a status and an
// identifier meant for programs in front of the message.
describe("the audit page's error line", () => {
  it("tells a burst limit's wait in seconds, not hours", () => {
    const body = { ok: false, error: "rate_limited", message: "burst limit reached: 30 requests per 60 seconds per client IP without a key", retry_after: 22 };
    expect(auditErrorText(429, body)).toBe("Burst limit reached: 30 requests per 60 seconds per client IP without a key. Try again in about 22 s, or use an API key.");
  });

  it("tells the daily allowance's wait in hours", () => {
    expect(auditErrorText(429, { error: "rate_limited", message: "daily config audit allowance used", retry_after: 5 * 3600 + 60 })).toBe(
      "Daily config audit allowance used. Try again in about 6 h, or use an API key.",
    );
  });

  it("says a file it cannot read, or one too large, as the message in a sentence", () => {
    expect(auditErrorText(400, { error: "invalid_request", message: "the config file cannot be read: close brace expected (line 5, column 2)" })).toBe(
      "The config file cannot be read: close brace expected (line 5, column 2).",
    );
    expect(auditErrorText(413, { error: "payload_too_large", message: "the config has 30 server entries; without an API key one audit takes at most 25 (with a key, 100)" })).toBe(
      "The config has 30 server entries; without an API key one audit takes at most 25 (with a key, 100).",
    );
  });

  it("names a query field as the form labels it", () => {
    expect(auditErrorText(400, { error: "invalid_request", message: "policy_id: unknown policy builtin:nope" })).toBe("Policy: unknown policy builtin:nope.");
  });

  it("says a key the form sent is not valid, and a wallet that cannot pay, in the page's words", () => {
    expect(auditErrorText(401, { error: "unauthorized", message: "the API key in x-api-key is not valid (unknown, malformed or revoked); create one on the account page" })).toBe(
      "The API key in the form is not valid (unknown, malformed or revoked): copy it again from the account page, or leave the box empty to audit without a key.",
    );
    expect(auditErrorText(402, { error: "payment_required", message: "the credit wallet cannot pay for this call (1 credit); …" })).toMatch(/^The API key's account has too few credits left for this audit; its wallet refills/);
  });

  it("says a server failure or an answer that is not the API's without an identifier", () => {
    expect(auditErrorText(502, null)).toBe("The audit failed on the server (HTTP 502). Try again in a minute.");
    expect(auditErrorText(500, { error: "internal_error", message: "internal error" })).toBe("The audit failed on the server (HTTP 500). Try again in a minute.");
  });

  it.each([
    [400, { error: "invalid_request", message: "body: not JSON" }],
    [401, { error: "unauthorized", message: "x" }],
    [413, { error: "payload_too_large", message: "the config file is over 256 KiB" }],
    [429, { error: "rate_limited", message: "x", retry_after: 3 }],
    [503, { error: "audit_unavailable", message: "x" }],
  ])("never starts with a status or an error identifier (%i)", (status, body) => {
    expect(auditErrorText(status, body)).not.toMatch(/^\d{3}\b|invalid_request|unauthorized|payload_too_large|rate_limited|audit_unavailable/);
  });
});
