import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { DrizzleQueryError } from "drizzle-orm";
import { errorForLog, errorMessage } from "@/lib/db/query-error";

// drizzle-orm ships a CommonJS build beside its ES modules: a second copy of DrizzleQueryError, as the built
// server has (Next bundles drizzle into several chunks, each with its own class)
const OtherCopy = (createRequire(import.meta.url)("drizzle-orm") as { DrizzleQueryError: typeof DrizzleQueryError }).DrizzleQueryError;

describe("errorMessage", () => {
  const insert = 'insert into "watches" ("id", "email", "secret") values ($1, $2, $3)';
  const values = ["wat_1", "someone@example.test", "whsec_do-not-log"];
  const reason = new Error("terminating connection due to administrator command");

  it("reads a failed statement from another copy of drizzle as its reason, without the values it carried", () => {
    expect(OtherCopy).not.toBe(DrizzleQueryError);
    for (const Copy of [DrizzleQueryError, OtherCopy]) {
      const err = new Copy(insert, values, reason);
      expect(errorMessage(err)).toBe('terminating connection due to administrator command (in: insert into "watches" ("id", "email", "secret") values ($1, …)');
      expect(errorForLog(err)).not.toMatch(/whsec_|someone@/);
    }
  });

  it("leaves other errors as they are", () => {
    expect(errorMessage(new Error("Failed query: but no statement"))).toBe("Failed query: but no statement");
    expect(errorMessage("plain")).toBe("plain");
  });
});
