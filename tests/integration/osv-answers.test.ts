import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { osvQueryBatch } from "@/lib/sources/osv";
import { startHttpServer } from "../helpers/http-server";

// What an OSV querybatch answer means (reference/upstream-apis.md §5.2): one result per query, in order, `{}` when
// nothing matched, else `vulns: [{id, modified}]`. A result in any other shape says nothing about the version it
// answers: read as "no advisories", the version would look clean on an answer nobody could read.
const query = (name: string) => ({ ecosystem: "jspkg", name, version: "1.0.0" });
const GOOD = { vulns: [{ id: "GHSA-good", modified: "2026-01-01T00:00:00Z" }] };

describe("osvQueryBatch", () => {
  let osv: Awaited<ReturnType<typeof startHttpServer>>;
  let second: unknown = {};
  const saved = { url: process.env.OSV_API_URL, allow: process.env.OUTBOUND_ALLOW_HOSTS };
  beforeAll(async () => {
    osv = await startHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results: [GOOD, second] }));
    });
    process.env.OSV_API_URL = osv.url;
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  });
  afterAll(async () => {
    process.env.OSV_API_URL = saved.url;
    process.env.OUTBOUND_ALLOW_HOSTS = saved.allow;
    await osv?.close();
  });

  it("reads ids per query, and {} as no advisories", async () => {
    second = {};
    expect(await osvQueryBatch([query("a"), query("b")], { retries: 0 })).toEqual([{ hits: [{ id: "GHSA-good", modified: "2026-01-01T00:00:00Z" }] }, { hits: [] }]);
  });

  it.each([
    ["null", null],
    ["an array", []],
    ["vulns not a list", { vulns: { id: "GHSA-x" } }],
    ["an entry without an id", { vulns: [{ modified: "2026-01-01T00:00:00Z" }] }],
    ["an id that is no string", { vulns: [{ id: 42 }] }],
    ["a page token that is no string", { vulns: [{ id: "GHSA-x" }], next_page_token: 7 }],
  ])("takes a result that is %s as no answer, never as no advisories", async (_what, result) => {
    second = result;
    await expect(osvQueryBatch([query("a"), query("b")], { retries: 0 })).rejects.toThrow(/result 2 is not a list of vulnerability ids/);
  });
});
