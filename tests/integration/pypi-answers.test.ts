import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchPypiProject } from "@/lib/sources/pypi";
import { startHttpServer } from "../helpers/http-server";

// What a PyPI JSON API answer means (reference/upstream-apis.md §4.1): `releases` is a deprecated key that "may
// go away". An answer without it says nothing about which releases exist: read as "none", every listing that
// pins a release would be reported missing.
const FILE = { filename: "x-1.0.0-py3-none-any.whl", yanked: false };
const JSON_BODIES: Record<string, unknown> = {
  good: { info: { name: "good", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
  "no-releases": { info: { name: "no-releases", version: "1.0.0" }, urls: [FILE] },
  "null-releases": { info: { name: "null-releases", version: "1.0.0" }, releases: null },
  "old-index": { info: { name: "old-index", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
  // PyPI's map holds every release, the latest among them: without it the map is cut short
  "cut-releases": { info: { name: "cut-releases", version: "2.0.0" }, releases: { "1.0.0": [FILE] } },
  "empty-releases": { info: { name: "empty-releases", version: "1.0.0" }, releases: {} },
  "status-word": { info: { name: "status-word", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
  "status-number": { info: { name: "status-number", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
  "status-empty": { info: { name: "status-empty", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
  archived: { info: { name: "archived", version: "1.0.0" }, releases: { "1.0.0": [FILE] } },
};
// `project-status` as the Simple API answers it (PEP 792: an object with a status word), and shapes that are not it
const STATUS: Record<string, unknown> = {
  "status-word": "deprecated",
  "status-number": { status: 3 },
  "status-empty": {},
  archived: { status: "archived", reason: "moved" },
};
// The Simple API's project status (PEP 792) exists from api-version 1.4: only there does its absence mean `active`.
const API_VERSION: Record<string, string> = { "old-index": "1.1" };

describe("fetchPypiProject", () => {
  let pypi: Awaited<ReturnType<typeof startHttpServer>>;
  const saved = { url: process.env.PYPI_URL, allow: process.env.OUTBOUND_ALLOW_HOSTS };
  beforeAll(async () => {
    pypi = await startHttpServer((req, res) => {
      const json = /^\/pypi\/([^/]+)\/json$/.exec(req.url ?? "");
      const simple = /^\/simple\/([^/]+)\/$/.exec(req.url ?? "");
      const name = decodeURIComponent((json ?? simple)?.[1] ?? "");
      if (!(name in JSON_BODIES)) return void res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}');
      const status = name in STATUS ? { "project-status": STATUS[name] } : {};
      const body = json ? JSON_BODIES[name] : { meta: { "api-version": API_VERSION[name] ?? "1.4" }, name, versions: ["1.0.0"], files: [], ...status };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    process.env.PYPI_URL = pypi.url;
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  });
  afterAll(async () => {
    process.env.PYPI_URL = saved.url;
    process.env.OUTBOUND_ALLOW_HOSTS = saved.allow;
    await pypi?.close();
  });

  it("reads a project and a 404", async () => {
    expect(await fetchPypiProject("good", null, { retries: 0 })).toMatchObject({ kind: "found", latestVersion: "1.0.0", versions: { "1.0.0": {} } });
    expect(await fetchPypiProject("absent", null, { retries: 0 })).toEqual({ kind: "missing", httpStatus: 404 });
  });

  it.each(["no-releases", "null-releases"])("takes a project answer without its releases map (%s) as an error, never as a project with no releases", async (name) => {
    expect(await fetchPypiProject(name, null, { retries: 0 })).toMatchObject({ kind: "error" });
  });

  it("takes a Simple API answer older than project statuses (api-version 1.1) as an error: 'not deprecated' would be a guess", async () => {
    expect(await fetchPypiProject("old-index", null, { retries: 0 })).toMatchObject({ kind: "error", error: expect.stringMatching(/project status/) });
  });

  it.each(["cut-releases", "empty-releases"])("takes a releases map without the latest release (%s) as an error, never as releases gone missing", async (name) => {
    expect(await fetchPypiProject(name, null, { retries: 0 })).toMatchObject({ kind: "error", error: expect.stringMatching(/lacks the latest release/) });
  });

  it.each(["status-word", "status-number", "status-empty"])("takes a project status it cannot read (%s) as an error, never as 'active'", async (name) => {
    expect(await fetchPypiProject(name, null, { retries: 0 })).toMatchObject({ kind: "error", error: expect.stringMatching(/unreadable project-status/) });
  });

  it("reads a project status object", async () => {
    expect(await fetchPypiProject("archived", null, { retries: 0 })).toMatchObject({ kind: "found", deprecated: "archived: moved", versions: { "1.0.0": { deprecated: "archived: moved" } } });
  });
});
