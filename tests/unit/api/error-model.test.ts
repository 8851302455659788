import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DrizzleQueryError } from "drizzle-orm";
import { withCaller } from "@/lib/api/with-caller";
import { describeZodError, readJsonBody } from "@/lib/api/request";
import { GET as unknownGet, OPTIONS as unknownOptions, POST as unknownPost } from "@/app/v1/[...path]/route";
import * as bareV1 from "@/app/v1/route";

const closed = z.object({ server_name: z.string().min(1).max(300) }).strict();
const echo = withCaller(async ({ req }) => ({ ok: true, got: await readJsonBody(req, closed) }));
const post = (body: string, headers: Record<string, string> = {}) =>
  echo(new Request("http://x/v1/echo", { method: "POST", body, headers: { "content-type": "application/json", ...headers } }));

describe("the /v1 error model", () => {
  it("answers unknown /v1 routes with a JSON 404 Error body", async () => {
    for (const [method, handler] of [["GET", unknownGet], ["POST", unknownPost], ["OPTIONS", unknownOptions]] as const) {
      const res = await handler(new Request("http://x/v1/does-not-exist", { method }));
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ ok: false, error: "not_found", message: expect.stringContaining("/v1/does-not-exist") });
    }
  });

  it("answers /v1 itself (no segment for the catch-all) with the JSON 404 Error body, not the HTML page", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) {
      const res = await bareV1[method](new Request("http://x/v1", { method }));
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual({ ok: false, error: "not_found", message: `no such endpoint: ${method} /v1` });
    }
  });

  it.each([
    ["not JSON", "{server_name:", /not valid JSON/],
    ["empty", "", /empty/],
    ["an array", "[]", /expected object/i],
    ["an unknown field", JSON.stringify({ server_name: "a/b", extra: 1 }), /unknown field\(s\) "extra"/],
    ["a wrong type", JSON.stringify({ server_name: 5 }), /server_name/],
    ["a name too long", JSON.stringify({ server_name: "x".repeat(301) }), /server_name/],
  ])("answers a body that is %s with 400 invalid_request", async (_label, body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json).toEqual({ ok: false, error: "invalid_request", message: expect.stringMatching(message) });
  });

  it("names what was wrong without echoing long caller text back", async () => {
    const long = "k".repeat(5000);
    const many = Object.fromEntries([["server_name", "a/b"], ...Array.from({ length: 8 }, (_, i) => [`${long}${i}`, 1])]);
    const message: string = (await (await post(JSON.stringify(many))).json()).message;
    expect(message).toBe(`body: unknown field(s) ${Array.from({ length: 5 }, () => `"${"k".repeat(80)}…"`).join(", ")} and 3 more`);
    const unknown = await unknownGet(new Request(`http://x/v1/${long}`));
    expect((await unknown.json()).message).toBe(`no such endpoint: GET /v1/${"k".repeat(196)}…`);
  });

  it("calls a URL's unknown names parameters and a body's fields", () => {
    const nested = z.strictObject({ filter: z.strictObject({ kind: z.string() }) });
    const wrong = (value: unknown) => nested.safeParse(value).error!;
    expect(describeZodError(wrong({ filter: { kind: "npm" }, limt: 3 }), "query")).toBe('query: unknown parameter(s) "limt"');
    expect(describeZodError(wrong({ filter: { kind: "npm" }, limt: 3 }))).toBe('body: unknown field(s) "limt"');
    expect(describeZodError(wrong({ filter: { kind: "npm", x: 1 } }), "query")).toBe('filter: unknown field(s) "x"');
  });

  it("accepts a body that fits the closed schema", async () => {
    const res = await post(JSON.stringify({ server_name: "io.github.a/b" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, got: { server_name: "io.github.a/b" } });
  });

  it("answers 413 for a body over the limit without reading all of it", async () => {
    const res = await post(JSON.stringify({ server_name: "x".repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("payload_too_large");
  });

  it("answers an unexpected failure with a 500 that leaks nothing", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const boom = withCaller(async () => {
      throw new Error("connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432");
    });
    const res = await boom(new Request("http://x/v1/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|ECONNREFUSED|db\.internal|at /);
    expect(JSON.parse(text)).toEqual({ ok: false, error: "internal_error", message: expect.stringMatching(/request id/) });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    spy.mockRestore();
  });

  it("logs a failed statement's reason, not the values it carried (drizzle puts them in its message, the reason in its cause)", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const boom = withCaller(async () => {
      const reason = new Error('could not extend file "base/5/17023": No space left on device');
      throw new DrizzleQueryError('insert into "sessions" ("session_token", "user_id") values ($1, $2)', ["secret-session-token", "u1"], reason);
    });
    const res = await boom(new Request("http://x/v1/boom"));
    expect(res.status).toBe(500);
    const logged = spy.mock.calls.map((c) => String(c[0])).join("\n");
    expect(logged).toMatch(/No space left on device \(in: insert into \\"sessions\\"/);
    expect(logged).not.toMatch(/secret-session-token/);
    spy.mockRestore();
  });
});
