import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "@/lib/openapi/operations";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const routeFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "[...path]" ? [] : routeFiles(p);
    return e.name === "route.ts" ? [p] : [];
  });
const apiPath = (file: string) => "/" + path.dirname(path.relative("app", file)).replace(/\[(\w+)\]/g, "{$1}");

describe("methods a /v1 route does not answer", () => {
  // app/v1/route.ts is /v1 itself, the catch-all's 404 for every method
  const files = routeFiles("app/v1").filter((f) => f !== path.join("app/v1", "route.ts"));

  it("are answered by every /v1 route file", async () => {
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      for (const m of METHODS) expect(typeof mod[m], `${file} ${m}`).toBe("function");
    }
  });

  it("with the Error body: 405 method_not_allowed and an Allow header naming the operation table's methods", async () => {
    for (const file of files) {
      const p = apiPath(file);
      const allowed = API_OPERATIONS.filter((o) => o.path === p).map((o) => o.method.toUpperCase());
      expect(allowed.length, p).toBeGreaterThan(0);
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      for (const m of METHODS.filter((x) => !allowed.includes(x))) {
        const res: Response = await mod[m](new Request(`http://localhost${p.replace(/\{\w+\}/g, "x")}`, { method: m }));
        expect(res.status, `${m} ${p}`).toBe(405);
        expect(await res.json()).toEqual({ ok: false, error: "method_not_allowed", message: expect.stringContaining(`${m} is not supported on`) });
        for (const a of allowed) expect(res.headers.get("allow")).toContain(a);
      }
    }
  });

  it("and OPTIONS names what the route answers: its operations, HEAD where GET is free, and OPTIONS", async () => {
    for (const file of files) {
      const p = apiPath(file);
      const allowed = API_OPERATIONS.filter((o) => o.path === p).map((o) => o.method.toUpperCase());
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      const res: Response = await mod.OPTIONS(new Request(`http://localhost${p.replace(/\{\w+\}/g, "x")}`, { method: "OPTIONS" }));
      expect(res.status, p).toBe(204);
      const head = allowed.includes("GET") && !METERED_GETS.includes(p) ? ["HEAD"] : [];
      expect(res.headers.get("allow"), p).toBe([...allowed.sort((a, b) => METHODS.indexOf(a) - METHODS.indexOf(b)), ...head, "OPTIONS"].join(", "));
    }
  });
});

// GET routes that charge: HEAD would be charged like GET for a body it does not send, so it is refused
const METERED_GETS = ["/v1/search", "/v1/server", "/v1/stamp", "/v1/lookalikes"];

describe("HEAD", () => {
  it("is refused on a metered GET route before anything is counted (405, Allow: GET, OPTIONS)", async () => {
    for (const p of METERED_GETS) {
      const mod = await import(/* @vite-ignore */ path.resolve(`app${p}/route.ts`));
      const res: Response = await mod.GET(new Request(`http://localhost${p}?q=weather&name=x`, { method: "HEAD", headers: { "x-api-key": "not-even-read" } }));
      expect(res.status, p).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, OPTIONS");
      expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
      expect(await res.json()).toMatchObject({ ok: false, error: "method_not_allowed", message: expect.stringContaining("use GET") });
    }
  });
});

describe("operator and cron routes (app/api)", () => {
  it("answer every method: a method they do not take is 405 with the Error body and Allow, OPTIONS says which", async () => {
    const files = routeFiles("app/api").filter((f) => !f.includes(`${path.sep}auth${path.sep}`));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      for (const m of [...METHODS, "OPTIONS"]) expect(typeof mod[m], `${file} ${m}`).toBe("function");
      const allow = (await mod.OPTIONS(new Request("http://localhost/api/x", { method: "OPTIONS" }))).headers.get("allow") as string;
      const refused = METHODS.filter((m) => !allow.split(", ").includes(m));
      expect(refused.length, file).toBeGreaterThan(0);
      for (const m of refused) {
        const res: Response = await mod[m](new Request("http://localhost/api/x", { method: m }));
        expect(res.status, `${file} ${m}`).toBe(405);
        expect(res.headers.get("allow")).toBe(allow);
        expect((await res.json()).error).toBe("method_not_allowed");
      }
    }
  });
});
