import { describe, expect, it } from "vitest";
import { auditErrorText } from "@/app/audit/audit-error-text";

describe("the audit page's error line", () => {
  it("tells a burst limit's wait in seconds, not hours", () => {
    const body = { ok: false, error: "rate_limited", message: "burst limit reached: 30 requests per 60 seconds per client IP without a key", retry_after: 22 };
    expect(auditErrorText(429, body)).toBe(
      "429 rate_limited: burst limit reached: 30 requests per 60 seconds per client IP without a key. Try again in about 22 s, or use an API key.",
    );
  });

  it("tells the daily allowance's wait in hours", () => {
    expect(auditErrorText(429, { error: "rate_limited", message: "daily config audit allowance used", retry_after: 5 * 3600 + 60 })).toMatch(/Try again in about 6 h,/);
  });

  it("says what failed when there is no retry time or no body", () => {
    expect(auditErrorText(400, { error: "invalid_request", message: "body: not JSON" })).toBe("400 invalid_request: body: not JSON.");
    expect(auditErrorText(502, null)).toBe("502 error: the audit failed.");
  });
});
