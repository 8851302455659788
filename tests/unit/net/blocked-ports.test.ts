import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FETCH_BLOCKED_PORTS } from "@/lib/net/blocked-ports";

describe("FETCH_BLOCKED_PORTS", () => {
  it("is the list the installed undici's fetch refuses (an upgrade that changes it fails here)", () => {
    const { badPorts } = createRequire(import.meta.url)("undici/lib/web/fetch/constants.js") as { badPorts: string[] };
    expect([...FETCH_BLOCKED_PORTS].sort()).toEqual([...badPorts].sort());
  });
});
