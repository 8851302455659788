import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as resolvePost } from "@/app/v1/resolve/route";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { resolveResultSchema, type ResolveResult } from "@/lib/schemas/config-audit";
import { resetDb } from "../helpers/db";
import { request } from "../helpers/catalog-fixture";
import { hasSharedData, SHARED_DIR, snapshotFiles } from "../helpers/shared-data";

// The reference configs resolved against a real registry snapshot through POST /v1/resolve, on both
// databases: every entry the snapshot lists resolves to that server, and nothing else resolves.

const CONFIG_DIR = path.join(SHARED_DIR, "reference/configs");
const SNAPSHOT = hasSharedData ? snapshotFiles().find((f) => f.endsWith("2025-11-28.json.gz")) : undefined;
const ready = Boolean(SNAPSHOT) && fs.existsSync(path.join(CONFIG_DIR, "INDEX.tsv"));

/** file → entry key → the listed server it must resolve to (all other entries resolve to none). */
const EXPECTED: Record<string, Record<string, [server: string, by: string]>> = {
  "29-vscode-docker-trailing-comma.json": { "terraform-mcp": ["io.github.hashicorp/terraform-mcp-server", "oci"] },
  "33-vscode-both-mcpServers-and-servers-keys.json": {
    github: ["io.github.github/github-mcp-server", "remote_url"],
    supabase: ["com.supabase/mcp", "remote_url"],
  },
  "37-github-copilot-mcpjson-gallery-http.json": { "microsoftdocs/mcp": ["com.microsoft/microsoft-learn-mcp", "remote_url"] },
  "39-windsurf-npx-uvx-mix.json": { "mongodb-mcp-server": ["io.github.mongodb-js/mongodb-mcp-server", "jspkg"] },
  "53-codex-aspire-cli-multiline-args-env-policy.toml": { "linear-server": ["app.linear/linear", "remote_url"] },
  "65-continue-json-in-mcpServers-dir-env-arg.json": { context7: ["io.github.upstash/context7", "jspkg"] },
  "67-cline-github-url-as-key.json": { "github.com/upstash/context7-mcp": ["io.github.upstash/context7", "jspkg"] },
  "71-cline-disabled-true-package-eq-REDACTED.json": { context7: ["io.github.upstash/context7", "jspkg"] },
  "75-roo-minified-streamable-http-docker.json": {
    context7: ["io.github.upstash/context7", "jspkg"],
    sonarqube: ["io.github.SonarSource/sonarqube-mcp-server", "oci"],
  },
};

function indexRows(): { file: string; source: string; status: string }[] {
  const [, ...lines] = fs.readFileSync(path.join(CONFIG_DIR, "INDEX.tsv"), "utf8").trim().split("\n");
  return lines.map((l) => l.split("\t")).map((c) => ({ file: c[0], source: c[3], status: c[7] }));
}

describe.skipIf(!ready)("reference configs against the 2025-11-28 registry snapshot", () => {
  const results = new Map<string, ResolveResult>();

  beforeAll(async () => {
    const db = await resetDb();
    await ingestDump(db, await readDumpFile(SNAPSHOT!), "snapshot");
    for (const row of indexRows()) {
      if (/^INVALID|^not JSON/.test(row.status)) continue;
      const body = fs.readFileSync(path.join(CONFIG_DIR, row.file), "utf8");
      const res = await resolvePost(request(`/v1/resolve?filename=${encodeURIComponent(row.source)}`, { method: "POST", body }));
      expect(res.status, row.file).toBe(200);
      results.set(row.file, resolveResultSchema.parse(await res.json()));
    }
  }, 180_000);

  it("resolves exactly the entries the snapshot lists, each to its server", () => {
    expect(results.size).toBeGreaterThan(30);
    for (const [file, result] of results) {
      const want = EXPECTED[file] ?? {};
      const got = Object.fromEntries(result.entries.filter((e) => e.server_name).map((e) => [e.key, [e.server_name, e.resolved_by]]));
      expect(got, file).toEqual(want);
    }
  });

  it("gives every unresolved entry a reason", () => {
    for (const [file, result] of results) {
      for (const e of result.entries.filter((x) => !x.server_name)) {
        expect(e.unresolved, `${file} ${e.key}`).toMatchObject({ code: expect.any(String), summary: expect.any(String) });
      }
    }
  });
});
