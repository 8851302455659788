// `npm run upstreams:fake [-- --port 4010] [--latency-ms 50] [--generated 20000 | --snapshot <file>] [--local-remotes]`
//
// Every upstream the harvester reads, on one port, for local runs: the MCP
// registry (a shared snapshot, or a generated catalog), GitHub REST + GraphQL,
// npm, PyPI, OSV, and MCP endpoints built with the SDK. Faults can be injected
// while it runs:  curl -XPOST localhost:4010/_faults -d '{"source":"npm","kind":"429","count":5}'
import fs from "node:fs";
import path from "node:path";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { normalizeRegistryEntry } from "@/lib/catalog/normalize-registry-entry";
import { normalizeRepositoryUrl } from "@/lib/catalog/repository-url";
import { startFakeUpstreams, type FakeUpstreams } from "./server";
import { generateWorld, rng } from "./generate";
import { parseArgsOrExit } from "../lib/parse-args-or-exit";
import { userPath } from "../lib/user-path";

const { values } = parseArgsOrExit({
  options: {
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    "latency-ms": { type: "string", default: "0" },
    generated: { type: "string" },
    snapshot: { type: "string" },
    seed: { type: "string", default: "1" },
    "local-remotes": { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("usage: npm run upstreams:fake -- [--port 4010] [--latency-ms 0] [--generated N | --snapshot <file>] [--local-remotes] [--seed 1]");
  process.exit(0);
}

/** A numeric option as a whole number from `min` to `max`; anything else is one line and exit 2, not NaN taken as 0. */
function wholeNumber(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (n >= min && n <= max) return n;
  console.error(`invalid arguments: --${name} is a whole number${max === Number.MAX_SAFE_INTEGER ? `, ${min} or more` : ` from ${min} to ${max}`} (got ${value})`);
  process.exit(2);
}
const port = wholeNumber("port", values.port, 1, 65_535)!;
const latencyMs = wholeNumber("latency-ms", values["latency-ms"], 0)!;
const generated = wholeNumber("generated", values.generated, 1);
const seed = wholeNumber("seed", values.seed, 0)!;
const snapshot = values.snapshot === undefined ? undefined : userPath(values.snapshot);
if (snapshot && !fs.existsSync(snapshot)) {
  console.error(`no such file: ${snapshot}`);
  process.exit(2);
}

type Obj = Record<string, any>;

/** Answers for every repository and package a real snapshot names, so a local harvest observes something. */
function answerFor(fake: FakeUpstreams, entries: Obj[], seed: number, localRemotes: boolean) {
  const rand = rng(seed);
  let remote = 0;
  for (const raw of entries) {
    let e;
    try {
      e = normalizeRegistryEntry(raw);
    } catch {
      continue;
    }
    if (e.repository) {
      const ref = normalizeRepositoryUrl(e.repository.url);
      if (ref.host === "github.com" && ref.owner && ref.name && !fake.github.repos.has(`${ref.owner}/${ref.name}`)) {
        fake.github.set({
          owner: ref.owner,
          name: ref.name,
          id: 1_000_000 + fake.github.repos.size,
          stars: Math.floor(rand() * 3000),
          archived: rand() < 0.02,
          pushedAt: new Date(Date.now() - Math.floor(rand() * 300) * 86_400_000).toISOString(),
          ownerType: "Organization",
          status: rand() < 0.01 ? 404 : 200,
        });
      }
    }
    for (const p of e.packages) {
      const v = p.version ?? "1.0.0";
      if (p.ecosystem === "jspkg") {
        const cur = fake.npm.packages.get(p.identifier);
        fake.npm.set({ name: p.identifier, latest: cur?.latest && cur.latest > v ? cur.latest : v, versions: { ...cur?.versions, [v]: null } });
        if (rand() < 0.03) fake.osv.add({ id: `GHSA-local-${fake.osv.vulns.size}`, modified: "2026-01-01T00:00:00Z", summary: "local advisory", severity: "MODERATE", ecosystem: "npm", name: p.identifier, versions: [v] });
      } else if (p.ecosystem === "pypkg") {
        const key = p.identifier.replace(/[-_.]+/g, "-").toLowerCase();
        const cur = fake.pypi.projects.get(key);
        fake.pypi.set({ name: p.identifier, latest: cur?.latest && cur.latest > v ? cur.latest : v, versions: { ...cur?.versions, [v]: false } });
      }
    }
    if (localRemotes) {
      const server = (raw.server ?? raw) as Obj;
      for (const r of (server.remotes ?? []) as Obj[]) {
        const id = `r${remote++}`;
        fake.mcp.set(id, { tools: [{ name: "echo", description: `tools of ${e.name}` }] });
        r.url = `${fake.url}/${r.type === "sse" ? "sse" : "mcp"}/${id}`;
      }
    }
  }
}

const fake = await startFakeUpstreams({ port, host: values.host, latencyMs }).catch((err: NodeJS.ErrnoException) => {
  console.error(`cannot listen on ${values.host}:${port}: ${err.code === "EADDRINUSE" ? "the port is in use (--port picks another)" : err.message}`);
  process.exit(1);
});
if (generated) {
  const w = generateWorld(fake, generated, seed);
  console.log(`generated ${w.servers.length} servers: ${w.repos} repositories, ${w.packages} packages, ${w.remotes} remotes, ${w.advisoryIds} advisory ids`);
} else {
  const dir = path.resolve("../shared/data/registry-snapshots");
  const file = snapshot ?? (fs.existsSync(dir) ? path.join(dir, fs.readdirSync(dir).filter((f) => f.endsWith(".json.gz")).sort().at(-1)!) : null);
  if (!file) {
    console.error("no snapshot: pass --snapshot <file> or --generated N");
    process.exit(2);
  }
  const entries = (await readDumpFile(file)) as Obj[];
  answerFor(fake, entries, seed, values["local-remotes"]!);
  fake.registry.load(entries);
  console.log(`registry: ${entries.length} rows from ${file}`);
}
console.log(`fake upstreams on ${fake.url}; point the service at them with:`);
for (const [k, v] of Object.entries(fake.env)) console.log(`  export ${k}=${v}`);
console.log(`  export GITHUB_TOKEN=fake OUTBOUND_ALLOW_HOSTS=${values.host === "0.0.0.0" ? "127.0.0.1" : values.host}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void fake.close().then(() => process.exit(0)));
