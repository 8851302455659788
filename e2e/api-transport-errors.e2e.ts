import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "@/lib/schemas/error";
import { startServer, type RunningServer } from "./helpers/server";

// Requests that never reach a route handler, because Next.js cannot build a Request for them (TRACE) or does
// not route them (a method no handler can export, a path that is not valid percent-encoding), against the
// production server: under /v1 they too get the contract's Error body, not Next's HTML page or an empty 400.

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

/** A raw request (fetch refuses TRACE and rewrites malformed paths). */
function send(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the production server's answers to requests no route handler sees", () => {
  it.each([
    ["TRACE", "/v1/policies"],
    ["TRACE", "/v1/no-such-endpoint"],
    ["PROPFIND", "/v1/search?q=weather"],
    ["QUERY", "/v1/preflight"],
  ])("answers %s %s with 501 not_implemented in the Error body", async (method, path) => {
    const res = await send(method, path);
    expect(res.status).toBe(501);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(errorBodySchema.parse(JSON.parse(res.body))).toMatchObject({ ok: false, error: "not_implemented", message: expect.stringContaining(method) });
  });

  it.each(["/v1/%", "/v1/%ZZ", "/v1/evaluations/%E0%A4%A", "/v1/%C0%AF"])("answers the malformed path %s with 400 invalid_request in the Error body", async (path) => {
    const res = await send("GET", path);
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(errorBodySchema.parse(JSON.parse(res.body))).toMatchObject({ ok: false, error: "invalid_request" });
  });

  it("answers TRACE outside /v1 with a plain 501 and logs no error", async () => {
    const res = await send("TRACE", "/");
    expect(res.status).toBe(501);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(server.log()).not.toMatch(/HTTP method is unsupported/);
  });

  it("still routes valid requests: a method a route does not answer is its 405, an unknown path its 404", async () => {
    const put = await send("PUT", "/v1/policies");
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(JSON.parse(put.body)).toMatchObject({ ok: false, error: "method_not_allowed" });
    expect((await send("GET", "/v1/%41bc")).status).toBe(404);
  });
});
