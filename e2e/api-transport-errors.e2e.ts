import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "@/lib/schemas/error";
import { startServer, type RunningServer } from "./helpers/server";

// Requests that never reach a route handler, because Next.js cannot build a Request for them (TRACE) or does
// not route them (a method no handler can export, a path that is not valid percent-encoding), against the
// production server: under /v1 they too get the contract's Error body, not Next's HTML page or an empty 400.

let server: RunningServer;
// a request not received in 2 s is refused (408), so that the test below need not wait Node's default 300 s
const REQUEST_TIMEOUT_MS = 2000;
beforeAll(async () => {
  server = await startServer({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
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

  // an embed never shows a broken image: a malformed badge path draws the badge of the name as written
  it.each(["/badge/io.github.acme/%zz.svg", "/badge/io.github.acme/%E0%A4%A.svg?style=flat", "/badge/%C3%28/x.svg", "/badge/acme/100%sure.svg"])(
    "answers the malformed badge path %s with the 'not in catalog' SVG, not Next's HTML 400",
    async (path) => {
      const res = await send("GET", path);
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
      expect(res.body).toContain("<title>mcp preflight: not in catalog</title>");
    },
  );

  it("answers a malformed Open Graph image path as it answers a name not in the catalog", async () => {
    const res = await send("GET", "/og/io.github.acme/%zz.png");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
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

/** Raw bytes on a fresh connection: what a client Node's HTTP parser refuses would send. */
function sendRaw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

describe("requests Node's HTTP parser refuses get the Error body too", () => {
  it.each([
    ["a method token Node does not know", "FOO /v1/policies HTTP/1.1\r\nHost: x\r\n\r\n", 501, "not_implemented"],
    ["headers over 16 KB", `GET /v1/policies HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431, "headers_too_large"],
    ["a malformed request line", "GET /v1/policies HTTP/9\r\nHost: x\r\n\r\n", 400, "invalid_request"],
    ["a malformed header", "GET /v1/policies HTTP/1.1\r\nHo st: x\r\n\r\n", 400, "invalid_request"],
  ])("%s", async (_what, bytes, status, error) => {
    const res = await sendRaw(bytes);
    expect(res.status).toBe(status);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(errorBodySchema.parse(JSON.parse(res.body))).toMatchObject({ ok: false, error });
  });

  it("a request not received in time: 408 request_timeout", async () => {
    // the request line and one header, then nothing: the socket stays open until the server gives up on it
    const url = new URL(server.url);
    const started = Date.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write("GET /v1/policies HTTP/1.1\r\nHost: x\r\n"));
      let got = "";
      socket.setEncoding("utf8");
      socket.on("data", (d) => (got += d));
      socket.on("error", reject);
      socket.on("close", () => resolve(got));
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    const [head, body] = text.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain("content-type: application/json; charset=utf-8");
    expect(errorBodySchema.parse(JSON.parse(body))).toMatchObject({ ok: false, error: "request_timeout" });
  });

  it("keeps serving after them", async () => {
    expect((await send("GET", "/v1/policies")).status).toBe(200);
  });
});

describe("how the production server writes an answer", () => {
  /** The chunks a raw keep-alive connection receives for one request, once its answer is complete. */
  function chunksOf(path: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const url = new URL(server.url);
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`));
      const chunks: string[] = [];
      socket.setEncoding("utf8");
      socket.on("data", (d: string) => {
        chunks.push(d);
        // a chunked answer ends with its zero-length chunk
        if (chunks.join("").endsWith("0\r\n\r\n")) {
          socket.destroy();
          resolve(chunks);
        }
      });
      socket.on("error", reject);
    });
  }

  // Next.js flushes the headers on their own, then the body, then the chunked encoding's end: each write a
  // packet the client wakes for. scripts/server.mjs corks them into one (about 4% less server CPU per request).
  it("sends a JSON answer's headers, body and end in one write", async () => {
    for (let i = 0; i < 5; i++) {
      const chunks = await chunksOf("/v1/health");
      expect(chunks, chunks.join("")).toHaveLength(1);
      expect(chunks[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nb\r\n\{"ok":true\}\r\n0\r\n\r\n$/);
    }
  });
});

describe("request bodies the server reads are capped, next-auth's included", () => {
  // next-auth reads a POST's body whole: an anonymous 400 MB sign-in post held about 1.4 GB of the server's memory
  it("refuses a sign-in post over 64 KiB with 413 in the Error body, declared or streamed", async () => {
    const big = "x".repeat(1024 * 1024);
    const declared = await fetch(`${server.url}/api/auth/signin/email`, { method: "POST", headers: { "content-type": "application/json" }, body: big, redirect: "manual" });
    const streamed = await fetch(`${server.url}/api/auth/signin/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new Blob([big]).stream(),
      duplex: "half",
      redirect: "manual",
    } as RequestInit & { duplex: "half" });
    for (const res of [declared, streamed]) {
      expect(res.status).toBe(413);
      expect(errorBodySchema.parse(await res.json())).toMatchObject({ ok: false, error: "payload_too_large" });
    }
  });

  // next-auth's redirect rule threw on a posted callbackUrl that is no URL: a 500 and a stack in the log
  it("signs out to the home page when the posted callbackUrl is no URL", async () => {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const res = await fetch(`${server.url}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, callbackUrl: "http://localhost:3000.evil.example/" }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/");
    expect(server.log()).not.toMatch(/Invalid URL/);
  });

  it("still signs in with a form of the usual size", async () => {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const res = await fetch(`${server.url}/api/auth/signin/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ email: "limits@example.test", csrfToken, callbackUrl: "/account" }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/api/auth/verify-request");
  });

  // Node kept such a connection as keep-alive and then dropped it: the next request a client sent on it (undici,
  // Node's fetch, reuses it) got no answer at all
  it("ends the connection of a request refused before its body was read, saying so", async () => {
    const url = new URL(server.url);
    const chunk = "x".repeat(16 * 1024);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(`POST /v1/preflight HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        for (let i = 0; i < 64; i++) socket.write(`4000\r\n${chunk}\r\n`);
        socket.write("0\r\n\r\n");
      });
      let got = "";
      socket.setEncoding("utf8");
      socket.on("data", (d) => (got += d));
      // the server may end the connection while the body is still being written (that is the point): writing on
      // then fails with EPIPE or ECONNRESET, after the answer arrived; "close" follows, and what was read is checked
      socket.on("error", (err: NodeJS.ErrnoException) => {
        if (err.code !== "EPIPE" && err.code !== "ECONNRESET") reject(err);
      });
      socket.on("close", () => resolve(got));
    });
    const head = text.split("\r\n\r\n")[0];
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    // and a client reusing its connections is answered after such a refusal
    for (const path of ["/v1/preflight", "/api/auth/signin/email"]) {
      const refused = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: new Blob([chunk.repeat(64)]).stream(), duplex: "half" } as RequestInit & { duplex: "half" });
      expect(refused.status).toBe(413);
      await refused.arrayBuffer();
      expect((await fetch(`${server.url}/v1/policies`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
      expect((await fetch(`${server.url}/v1/policies`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
    }
  });

  it("keeps the connection of a request whose body was read", async () => {
    const res = await fetch(`${server.url}/v1/preflight`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(res.headers.get("connection")).toBe("keep-alive");
  });
});
