import { afterEach, describe, expect, it } from "vitest";
import { believableTime, parseUpstreamTime, UPSTREAM_CLOCK_SKEW_MS } from "@/lib/sources/upstream-time";
import { normalizeRegistryEntry } from "@/lib/catalog/normalize-registry-entry";

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const iso = (v: unknown) => parseUpstreamTime(v)?.toISOString() ?? null;

describe("parseUpstreamTime: the instant an upstream's time names, or null", () => {
  it.each([
    ["Z", "2026-03-10T12:00:00Z", "2026-03-10T12:00:00.000Z"],
    ["lower-case t and z", "2026-03-10t12:00:00z", "2026-03-10T12:00:00.000Z"],
    ["seven fraction digits", "2026-03-10T12:00:00.1234567Z", "2026-03-10T12:00:00.123Z"],
    ["nine fraction digits and an offset", "2026-03-10T17:30:00.999999999+05:30", "2026-03-10T12:00:00.999Z"],
    ["one fraction digit", "2026-03-10T12:00:00.5Z", "2026-03-10T12:00:00.500Z"],
    ["a negative offset across midnight", "2026-03-10T23:30:00-01:00", "2026-03-11T00:30:00.000Z"],
    ["a basic-format offset", "2026-03-10T17:30:00+0530", "2026-03-10T12:00:00.000Z"],
    ["no offset (UTC)", "2026-03-10T12:00:00", "2026-03-10T12:00:00.000Z"],
    ["a space for T", "2026-03-10 12:00:00Z", "2026-03-10T12:00:00.000Z"],
    ["a date alone", "2026-03-10", "2026-03-10T00:00:00.000Z"],
    ["29 February of a leap year", "2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["before 1970", "1969-07-20T20:17:40Z", "1969-07-20T20:17:40.000Z"],
    ["the year 1000", "1000-01-01T00:00:00Z", "1000-01-01T00:00:00.000Z"],
    ["the far future", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
  ])("reads %s", (_label, text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    ["30 February", "2026-02-30T00:00:00Z"],
    ["29 February of a common year", "2026-02-29T00:00:00Z"],
    ["24:00", "2026-03-10T24:00:00Z"],
    ["minute 60", "2026-03-10T12:60:00Z"],
    ["month 13", "2026-13-01T00:00:00Z"],
    ["year 0", "0000-01-01T00:00:00Z"],
    ["Go's zero time (its 'unset')", "0001-01-01T00:00:00Z"],
    ["the year 999", "0999-12-31T23:59:59Z"],
    ["a five-digit year", "10000-01-01T00:00:00Z"],
    ["an extended year", "+010000-01-01T00:00:00Z"],
    ["an empty fraction", "2026-03-10T12:00:00.Z"],
    ["words", "yesterday"],
    ["an HTTP date", "Tue, 10 Mar 2026 12:00:00 GMT"],
    ["epoch seconds", 1773144000],
    ["nothing", ""],
    ["null", null],
  ])("refuses %s", (_label, value) => {
    expect(parseUpstreamTime(value)).toBeNull();
  });

  it("reads a time without an offset as UTC whatever the process's time zone", () => {
    process.env.TZ = "America/St_Johns"; // -03:30: a local reading would be off by hours and a half
    expect(iso("2026-03-10T12:00:00")).toBe("2026-03-10T12:00:00.000Z");
    expect(iso("2026-03-10")).toBe("2026-03-10T00:00:00.000Z");
  });

  it("is what a registry listing's times go through: an impossible date is unknown, not the day after", () => {
    const e = normalizeRegistryEntry({
      server: { name: "io.github.a/x", version: "1.0.0", description: "d" },
      _meta: { "io.modelcontextprotocol.registry/official": { status: "active", publishedAt: "2026-02-30T00:00:00Z", updatedAt: "2026-03-01T10:00:00.123456789+01:00" } },
    });
    expect(e.publishedAt).toBeNull();
    expect(e.updatedAt?.toISOString()).toBe("2026-03-01T09:00:00.123Z");
  });
});

describe("believableTime: an upstream time past our reading by more than the skew is unknown", () => {
  const readAt = new Date("2026-03-01T00:00:00Z");
  const after = (ms: number) => new Date(readAt.getTime() + ms);
  it.each([
    ["long before", new Date("2020-01-01T00:00:00Z"), true],
    ["exactly the skew after (a clock a day fast)", after(UPSTREAM_CLOCK_SKEW_MS), true],
    ["a millisecond past the skew", after(UPSTREAM_CLOCK_SKEW_MS + 1), false],
    ["a year after", after(365 * UPSTREAM_CLOCK_SKEW_MS), false],
  ])("%s", (_, at, kept) => {
    expect(believableTime(at, readAt)).toBe(kept ? at : null);
  });
  it("unknown stays unknown", () => expect(believableTime(null, readAt)).toBeNull());
});
