import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { failureText, storableText } from "@/lib/db/storable-text";
import { resetDb } from "../helpers/db";

describe("failureText", () => {
  it("keeps the database's own message of a failed query, not the statement and every parameter", async () => {
    const db = await resetDb();
    const listingText = "x".repeat(5_000);
    const err = await db.execute(sql`select ${listingText}::text, 1 / 0`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message.length).toBeGreaterThan(5_000); // the wrapper quotes the parameter whole
    expect(failureText(err)).toBe("division by zero (in: select $1::text, 1 / 0)");
  });

  it("stores any other failure's message, NULs replaced, cut at the limit without splitting a character", () => {
    expect(failureText(new Error("fetch failed: a\u0000b"))).toBe("fetch failed: a\uFFFDb");
    expect(failureText(new Error(`${"é".repeat(3)}😀😀`), 4)).toBe("ééé😀");
    expect(failureText("plain")).toBe("plain");
    expect(storableText(null)).toBeNull();
  });
});
