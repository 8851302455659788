import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fillOptionalManifests, OPTIONAL_MANIFESTS } from "../../../scripts/optional-manifests.mjs";

// Next's own loader, as its app-route runtime calls it for these manifests (handleMissing: true)
const { loadManifestFromRelativePath } = createRequire(import.meta.url)("next/dist/server/load-manifest.external") as {
  loadManifestFromRelativePath(o: { projectDir: string; distDir: string; manifest: string; handleMissing?: boolean; cache?: Map<string, unknown> }): unknown;
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "optional-manifests-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function build(): string {
  const dist = path.join(dir, ".next");
  fs.mkdirSync(path.join(dist, "server"), { recursive: true });
  fs.writeFileSync(path.join(dist, "BUILD_ID"), "test-build");
  return dist;
}

describe("fillOptionalManifests", () => {
  it("gives Next the same manifest it uses for a missing one, and one its cache keeps", () => {
    const dist = build();
    const load = (manifest: string, cache: Map<string, unknown>) =>
      loadManifestFromRelativePath({ projectDir: dir, distDir: ".next", manifest, handleMissing: true, cache });
    const before = new Map<string, unknown>();
    const missing = OPTIONAL_MANIFESTS.map((m) => load(m, before));
    // missing: an empty object, and nothing cached, so the next request reads (and fails) again
    expect(missing).toEqual(OPTIONAL_MANIFESTS.map(() => ({})));
    expect(before.size).toBe(0);

    expect(fillOptionalManifests(dist)).toEqual(OPTIONAL_MANIFESTS);
    const after = new Map<string, unknown>();
    expect(OPTIONAL_MANIFESTS.map((m) => load(m, after))).toEqual(missing);
    expect(after.size).toBe(OPTIONAL_MANIFESTS.length);
  });

  it("never replaces a manifest the build wrote", () => {
    const dist = build();
    const sri = path.join(dist, "server/subresource-integrity-manifest.json");
    fs.writeFileSync(sri, '{"/_next/static/a.js":"sha256-x"}');
    expect(fillOptionalManifests(dist)).toEqual(["dynamic-css-manifest"]);
    expect(fs.readFileSync(sri, "utf8")).toBe('{"/_next/static/a.js":"sha256-x"}');
    expect(fillOptionalManifests(dist)).toEqual([]);
  });

  it("leaves a directory that holds no finished build alone", () => {
    fs.mkdirSync(path.join(dir, ".next"));
    expect(fillOptionalManifests(path.join(dir, ".next"))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, ".next"))).toEqual([]);
  });
});
