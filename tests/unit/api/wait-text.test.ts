import { describe, expect, it } from "vitest";
import { waitText } from "@/app/_components/wait-text";

describe("waitText (the search box's 429 message)", () => {
  it("says seconds for a burst window, minutes past that, hours for the daily allowance", () => {
    expect(waitText(50)).toBe("50 s");
    expect(waitText(0.2)).toBe("1 s");
    expect(waitText(600)).toBe("10 min");
    expect(waitText(7 * 3600 + 5)).toBe("8 h");
  });
});
