import { describe, expect, it } from "vitest";
import { mergeBatchQuotaHeaders } from "@/lib/quota";

// An MCP batch's calls run at once: the headers of its answer must not depend on which call finished last.
describe("mergeBatchQuotaHeaders", () => {
  const burst = (remaining: number, credits?: number) => ({
    "x-tier": "pro",
    "x-ratelimit-limit": "60",
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": "1800000000",
    "x-ratelimit-resource": "burst",
    ...(credits === undefined ? {} : { "x-credits-remaining": String(credits) }),
  });

  it("says the least any call left, in whichever order the calls finished", () => {
    // the second call counted and paid last but finished first
    const first = burst(57, 90);
    const second = burst(58, 95);
    for (const order of [[first, second], [second, first]]) {
      const merged = order.reduce<Record<string, string> | undefined>((kept, h) => mergeBatchQuotaHeaders(kept, h), undefined)!;
      expect(merged["x-ratelimit-remaining"]).toBe("57");
      expect(merged["x-credits-remaining"]).toBe("90");
    }
  });

  it("takes one window's fields together, and a balance from a call that had one", () => {
    const daily = { "x-tier": "free", "x-ratelimit-limit": "10", "x-ratelimit-remaining": "3", "x-ratelimit-reset": "1800003600", "x-ratelimit-resource": "daily" };
    const merged = mergeBatchQuotaHeaders(burst(40), daily);
    expect(merged).toEqual(daily);
    expect(mergeBatchQuotaHeaders(burst(40), burst(41, 12))["x-credits-remaining"]).toBe("12");
    expect(mergeBatchQuotaHeaders(undefined, daily)).toBe(daily);
  });
});
