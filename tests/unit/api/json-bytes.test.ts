import { describe, expect, it } from "vitest";
import { jsonBytes, markSharedJson } from "@/lib/api/json-bytes";
import { json } from "@/lib/api/respond";

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

describe("jsonBytes", () => {
  it("is JSON.stringify's output in UTF-8, lone surrogates escaped as JSON.stringify escapes them", async () => {
    const value = { name: "wetter-ü-☂", odd: "\ud800x", n: 1, list: [null, true] };
    expect(text(jsonBytes(value))).toBe(JSON.stringify(value));
    const res = json(value);
    expect(await res.text()).toBe(JSON.stringify(value));
    expect(await json(value).json()).toEqual(value);
    expect(text(jsonBytes("plain"))).toBe('"plain"');
    expect(text(jsonBytes(undefined))).toBe("null");
  });

  it("encodes a shared value once and an ordinary value every time", () => {
    const shared = markSharedJson({ count: 1 });
    const first = jsonBytes(shared);
    shared.count = 2; // a shared value must not change; if it does, its first encoding is what goes out
    expect(jsonBytes(shared)).toBe(first);
    const plain = { count: 1 };
    jsonBytes(plain);
    plain.count = 2;
    expect(text(jsonBytes(plain))).toBe('{"count":2}');
  });
});
