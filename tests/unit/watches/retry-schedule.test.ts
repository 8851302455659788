import { describe, expect, it } from "vitest";
import { nextAttemptAfterFailure, retryDelayMs } from "@/lib/watches/retry-schedule";

const S = 1000;
const H = 3600 * S;

describe("the delivery retry schedule", () => {
  it("doubles from 30 s and caps at 6 h", () => {
    expect([1, 2, 3, 4, 5, 10, 11, 12, 20].map((n) => retryDelayMs(n) / S)).toEqual([30, 60, 120, 240, 480, 15360, 21600, 21600, 21600]);
  });

  it("retries for 24 h after the event was queued, the last attempt on the mark, then gives up", () => {
    const queued = new Date("2026-03-01T00:00:00Z");
    const times: number[] = [0];
    let failed = 1;
    for (;;) {
      const next = nextAttemptAfterFailure(queued, failed, new Date(queued.getTime() + times.at(-1)!));
      if (!next) break;
      times.push(next.getTime() - queued.getTime());
      failed++;
    }
    expect(times.map((t) => t / S)).toEqual([0, 30, 90, 210, 450, 930, 1890, 3810, 7650, 15330, 30690, 52290, 73890, 86400]);
    expect(times.at(-1)).toBe(24 * H);
  });

  it("gives an event that waited past its window no retry after its one attempt", () => {
    const queued = new Date("2026-03-01T00:00:00Z");
    expect(nextAttemptAfterFailure(queued, 1, new Date(queued.getTime() + 25 * H))).toBeNull();
    expect(nextAttemptAfterFailure(queued, 1, new Date(queued.getTime() + 24 * H - 10 * S))!.getTime()).toBe(queued.getTime() + 24 * H);
  });
});
