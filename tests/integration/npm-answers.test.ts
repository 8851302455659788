import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchPackument } from "@/lib/sources/npm";
import { startHttpServer } from "../helpers/http-server";

// What an npm registry answer means (reference/upstream-apis.md §3): only a 404 or an unpublished tombstone
// says a package is not available; a 200 that is not a package document says nothing about the package.
const BODIES: Record<string, unknown> = {
  good: { name: "good", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } },
  tombstone: { name: "tombstone", time: { created: "2020-01-01T00:00:00Z", unpublished: { time: "2021-01-01T00:00:00Z", versions: ["0.0.1"] } } },
  empty: {},
  array: [],
  "error-object": { error: "service unavailable" },
  "null-fields": { "dist-tags": null, versions: null },
  "no-versions": { name: "no-versions", "dist-tags": {}, versions: {} },
};

describe("fetchPackument", () => {
  let npm: Awaited<ReturnType<typeof startHttpServer>>;
  const saved = { url: process.env.NPM_REGISTRY_URL, allow: process.env.OUTBOUND_ALLOW_HOSTS };
  beforeAll(async () => {
    npm = await startHttpServer((req, res) => {
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      if (name === "chunked") {
        // no content-length: 100 chunks of 1 KiB, more than any cap the test sets
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"name":"chunked","versions":{},"pad":"');
        for (let i = 0; i < 100; i++) res.write("x".repeat(1024));
        return void res.end('"}');
      }
      // the registry now answers an unpublished package 404, with its tombstone as the body
      if (name === "tombstone-404") return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ ...(BODIES.tombstone as object), name }));
      if (!(name in BODIES)) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(BODIES[name]));
    });
    process.env.NPM_REGISTRY_URL = npm.url;
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  });
  afterAll(async () => {
    process.env.NPM_REGISTRY_URL = saved.url;
    process.env.OUTBOUND_ALLOW_HOSTS = saved.allow;
    await npm?.close();
  });

  it("reads a packument, a 404 and a tombstone", async () => {
    expect(await fetchPackument("good", null, { retries: 0 })).toMatchObject({ kind: "found", latestVersion: "1.0.0" });
    expect(await fetchPackument("absent", null, { retries: 0 })).toEqual({ kind: "missing", httpStatus: 404 });
    expect(await fetchPackument("tombstone", null, { retries: 0 })).toEqual({ kind: "unpublished", httpStatus: 200 });
    // stored as merely missing, the package's unpublication was lost
    expect(await fetchPackument("tombstone-404", null, { retries: 0 })).toEqual({ kind: "unpublished", httpStatus: 404 });
  });

  it("stops reading an answer over the size limit and reports it, declared or streamed", async () => {
    await expect(fetchPackument("good", null, { retries: 0, maxBodyBytes: 20 })).rejects.toThrow(/answer over 20 bytes, not read/);
    await expect(fetchPackument("chunked", null, { retries: 0, maxBodyBytes: 4096 })).rejects.toThrow(/answer over 4096 bytes/);
  });

  it.each(["empty", "array", "error-object", "null-fields", "no-versions"])("takes a 200 that is not a package document (%s) as an error, never as missing", async (name) => {
    expect(await fetchPackument(name, null, { retries: 0 })).toMatchObject({ kind: "error" });
  });
});
