import { describe, expect, it } from "vitest";
import { decodeChangeCursor, encodeChangeCursor } from "@/lib/services/list-changes";
import { ApiError } from "@/lib/api/errors";

describe("the change feed cursor", () => {
  it("round-trips change ids and grows with them", () => {
    for (const id of [0, 1, 42, 812, 2 ** 40, Number.MAX_SAFE_INTEGER]) expect(decodeChangeCursor(encodeChangeCursor(id))).toBe(id);
    expect(encodeChangeCursor(812)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeChangeCursor(1)).not.toBe(encodeChangeCursor(2));
  });

  it.each([
    ["empty", ""],
    ["not base64url", "a+b/c="],
    ["another prefix", Buffer.from("c2.5").toString("base64url")],
    ["a negative id", Buffer.from("c1.-5").toString("base64url")],
    ["leading zeros", Buffer.from("c1.007").toString("base64url")],
    ["trailing text", Buffer.from("c1.5x").toString("base64url")],
    ["too large", Buffer.from("c1.99999999999999999").toString("base64url")],
    ["a plain number", "812"],
    ["padding", `${encodeChangeCursor(5)}=`],
  ])("refuses %s with 400 invalid_request", (_what, cursor) => {
    let err: unknown;
    try {
      decodeChangeCursor(cursor);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).code).toBe("invalid_request");
  });
});
