import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { middleware } from "@/middleware";
import { allowedMethods, ROUTE_METHODS } from "@/lib/api/route-methods";
import { API_OPERATIONS } from "@/lib/openapi/operations";

const call = (method: string, path: string) => middleware(new NextRequest(`http://localhost${path}`, { method }));

describe("methods on /v1 paths", () => {
  it("answers a known path called with another method with a JSON 405 and Allow", async () => {
    const res = call("GET", "/v1/preflight");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
    expect(await res.json()).toEqual({ ok: false, error: "method_not_allowed", message: expect.stringMatching(/GET is not supported on \/v1\/preflight; use POST/) });
    expect(call("PUT", "/v1/evaluations/0b0d4c0e-0000-4000-8000-000000000000").status).toBe(405);
    expect(call("PATCH", "/v1/watch").status).toBe(405);
  });

  it("knows exactly the methods of the operation table", () => {
    const fromTable: Record<string, string[]> = {};
    for (const op of API_OPERATIONS) (fromTable[op.path] ??= []).push(op.method.toUpperCase());
    const sorted = (o: Record<string, string[]>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, [...v].sort()]).sort());
    expect(sorted(ROUTE_METHODS)).toEqual(sorted(fromTable));
  });

  it("lets allowed methods and unknown paths through to their routes", () => {
    for (const [m, p] of [
      ["POST", "/v1/preflight"],
      ["GET", "/v1/policies"],
      ["HEAD", "/v1/policies"],
      ["DELETE", "/v1/watch"],
      ["GET", "/v1/evaluations/abc"],
      ["GET", "/v1/no-such-route"],
    ]) {
      expect(call(m, p).headers.get("x-middleware-next"), `${m} ${p}`).toBe("1");
    }
    expect(allowedMethods("/v1/no-such-route")).toBeNull();
  });
});
