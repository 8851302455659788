import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { openDatabase, pgliteLockHolder } from "@/lib/db/client";
import { runScript, type ScriptRun } from "@/tests/helpers/run-script";
import { evaluate, STRICT_POLICY, toPreflightResult } from "@/lib/engine";
import { buildFacts, NOW, repo } from "@/tests/unit/engine/facts-builder";

// The operator scripts as an operator runs them: a fresh process on the embedded database (no server
// holds it, so the work is done in the script's own process). Once per suite: they open their own database.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "operator-scripts-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  return runOn(`pglite:${path.join(dataDir, "pglite")}`, script, ...args);
}

function runOn(databaseUrl: string, script: string, ...args: string[]) {
  return runWith({ DATABASE_URL: databaseUrl }, script, ...args);
}

function runWith(extra: Record<string, string>, script: string, ...args: string[]): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: `pglite:${path.join(dataDir, "pglite")}`, LOG_LEVEL: "silent", ...extra };
  delete env.TEST_DATABASE_URL;
  return runScript(env, script, ...args);
}

/**
 * A migrated embedded database in `dir` (a copy of the one `migrate` made before the tests): creating a PGlite
 * cluster (initdb in WASM) and applying every migration took a script run seconds of CPU more each time, and
 * five of these tests start on a database of their own. The cluster is closed, so its files are the database.
 */
function migratedCopy(dir: string): string {
  fs.cpSync(path.join(dataDir, "template", "pglite"), dir, { recursive: true });
  return dir;
}

describe.skipIf(process.env.TEST_DB !== "pglite")("operator scripts on the embedded database", () => {
  beforeAll(async () => {
    // db:migrate on a directory with no database: creates the cluster and applies every migration
    const migrated = await runOn(`pglite:${path.join(dataDir, "template", "pglite")}`, "migrate");
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^migrations applied: PGlite at /m);
    migratedCopy(path.join(dataDir, "pglite"));
  }, 120_000);

  it("read a file named relative to where the user typed the command (npm runs them from the package root)", async () => {
    // npm keeps the caller's directory in INIT_CWD; the file is there, not in the package root
    const here = fs.mkdtempSync(path.join(dataDir, "cwd-"));
    fs.writeFileSync(path.join(here, "evaluation.json"), "{}");
    const [verify, ingest] = await Promise.all([
      runWith({ INIT_CWD: here }, "verify", "evaluation.json"),
      runWith({ INIT_CWD: here }, "ingest", "--file", "no-such-dump.json"),
    ]);
    // read (a mismatch, exit 1), not "cannot read" (exit 2)
    expect(verify.stderr).not.toMatch(/cannot read/);
    expect(verify.status).toBe(1);
    expect(ingest.stderr).toContain(`no such file: ${path.join(here, "no-such-dump.json")}`);
  });

  it("key:create prints a new key once, refuses bad arguments with exit 2, and grants watches by request", async () => {
    // the refusals below come before any database is opened: started with the first run (each is a fresh tsx process)
    const usages = [["create-key"], ["grant-watch-limit", "--email", "ops@example.com"]].map(([script, ...args]) => run(script, ...args));
    const refused = run("create-key", "--email", "not-an-address");
    const made = await run("create-key", "--email", "ops@example.com", "--tier", "pro");
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^account \S+ \(pro\)$/m);
    expect(made.stdout).toMatch(/^key \(shown once, store it now\): \S{20,}$/m);

    // without its required option: the usage, on stderr like every other refusal
    for (const running of usages) {
      const usage = await running;
      expect(usage.status).toBe(2);
      expect(usage.stdout).toBe("");
      expect(usage.stderr).toMatch(/^usage: npm run /);
    }

    const bad = await refused;
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/invalid arguments: email/);

    const granted = await run("grant-watch-limit", "--email", "ops@example.com", "--limit", "80");
    expect(granted.status, granted.stderr).toBe(0);
    expect(granted.stdout).toMatch(/80 active watches \(granted\)/);
  });

  it("a failure is one line and exit 1, not a stack trace", async () => {
    // three databases, three processes at once
    const blocked = path.join(dataDir, "not-a-directory");
    fs.writeFileSync(blocked, "");
    const [unknown, failed, lost] = await Promise.all([
      run("grant-watch-limit", "--email", "nobody@example.com", "--limit", "80"),
      runOn(`pglite:${blocked}`, "create-key", "--email", "ops@example.com"),
      runOn("pglite:memory", "create-key", "--email", "ops@example.com"),
    ]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toMatch(/^account:watch-limit failed: /);

    // a database that cannot be opened (its directory is a file): key:create says so in one line too
    expect(failed.status).toBe(1);
    expect(failed.stderr.trim().split("\n")).toHaveLength(1);
    expect(failed.stderr).toMatch(/^key:create failed: /);

    // an in-memory database ends with the job: its work would be lost while it reported success
    expect(lost.status).toBe(1);
    expect(lost.stdout).not.toMatch(/key \(shown once/);
    expect(lost.stderr.trim()).toMatch(/^key:create failed: DATABASE_URL=pglite:memory is a database of one process, which ends with this job/);
  });

  it("a misspelt or unknown option is one line naming it and exit 2, not a stack trace", async () => {
    const cases: string[][] = [
      ["create-key", "--emial", "ops@example.com"],
      ["ingest", "--bogus"],
      ["deliver", "--bogus"],
      ["harvest", "--registry"],
      ["grant-watch-limit", "--email", "ops@example.com", "--limit", "-3"],
      // an option of ingest's other form was ignored: --full with a dump, --observed-at with a registry crawl
      ["ingest", "--full", "--file", "dump.json"],
      ["ingest", "--observed-at", "2025-11-28T00:00:00Z"],
      // these two ignored what they did not take: `db:migrate --dry-run` migrated, `verify a.json b.json` read a.json only
      ["migrate", "--dry-run"],
      ["verify", "a.json", "b.json"],
      ["verify", "--strict", "a.json"],
      // the fake upstreams threw parseArgs' stack trace, Node's for --port abc, and took --generated abc as 0 servers
      ["fake-upstreams/main", "--bogus"],
      ["fake-upstreams/main", "--port", "abc"],
      ["fake-upstreams/main", "--generated", "many"],
    ];
    // refused before any database is opened: all at once (each is a fresh tsx process, seconds apiece)
    const runs = cases.map(([script, ...args]) => run(script, ...args));
    for (const [i, [script, ...args]] of cases.entries()) {
      const r = await runs[i];
      expect(r.status, `${script} ${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/^invalid arguments: /);
      if (script === "create-key") expect(r.stderr).toMatch(/'--emial'.*\(--help lists the options\)$/m);
    }
    // a number that is not one is refused before anything runs, not taken as "no deadline"
    const deadline = await run("harvest", "--deadline-ms", "soon", "--registry", "none", "--sources", "vuln");
    expect(deadline.status).toBe(2);
    expect(deadline.stderr.trim()).toBe('--deadline-ms is a number of milliseconds, 0 for none (got "soon")');
    // a dump observed after it is imported (a typo: 2052 for 2025) would be newer than every listing to come
    const future = await run("ingest", "--file", "dump.json", "--observed-at", "2052-11-05T00:00:00Z");
    expect(future.status).toBe(2);
    expect(future.stderr.trim()).toMatch(/^--observed-at is in the future \(now is .*\): a dump cannot have been observed after it is imported: 2052-11-05T00:00:00Z$/);
  });

  it("a number or a time that is none is refused before anything runs, not read as another one", async () => {
    // an empty --deadline-ms (`--deadline-ms "$UNSET"`) was Number("") = 0: no deadline at all
    const empty = await run("harvest", "--deadline-ms", "", "--registry", "none", "--sources", "vuln");
    expect(empty.status, empty.stdout).toBe(2);
    expect(empty.stderr.trim()).toBe('--deadline-ms is a number of milliseconds, 0 for none (got "")');
    // --observed-at was read by `new Date`: "1" was 2001-01-01 (every server of a fresh catalog first seen then), a
    // 30th of February the 2nd of March, Go's zero time year 1; an empty value was ignored
    const times = ["1", "2025-02-30", "0001-01-01T00:00:00Z", "Nov 28 2025", ""];
    const runs = times.map((observedAt) => run("ingest", "--file", "dump.json", "--observed-at", observedAt));
    for (const [i, observedAt] of times.entries()) {
      const bad = await runs[i];
      expect(bad.status, observedAt).toBe(2);
      expect(bad.stderr.trim()).toBe(`--observed-at is not a time (RFC 3339, such as 2025-11-28T00:00:00Z): ${observedAt}`.trim());
    }
  });

  it("a setting of the environment the job cannot use is one line naming it and exit 1, not a default or NaN taken silently", async () => {
    // DELIVER_INTERVAL_MS=5s was NaN, which turned the server's delivery timer off without a word
    const [deliver, migrate] = await Promise.all([runWith({ DELIVER_INTERVAL_MS: "5s" }, "deliver"), runWith({ DATABASE_POOL_MAX: "ten" }, "migrate")]);
    expect(deliver.status).toBe(1);
    expect(deliver.stderr.trim()).toBe('deliver failed: DELIVER_INTERVAL_MS must be a whole number from 0 to 2147483647 (got "5s")');
    expect(migrate.status).toBe(1);
    expect(migrate.stderr.trim()).toBe('db:migrate failed: DATABASE_POOL_MAX must be a whole number, 1 or more (got "ten")');
  });

  it("a file that is not JSON fails in one line: the parser's excerpt of the file may hold a line break", async () => {
    const notJson = path.join(dataDir, "not-json.json");
    fs.writeFileSync(notJson, "vm\n");
    const [ingest, verify] = await Promise.all([run("ingest", "--file", notJson), run("verify", notJson)]);
    expect(ingest.status).toBe(1);
    expect(ingest.stderr.trim().split("\n"), ingest.stderr).toHaveLength(1);
    expect(verify.status).toBe(2);
    expect(verify.stderr.trim().split("\n"), verify.stderr).toHaveLength(1);
  });

  it("verify reads a saved evaluation that starts with a UTF-8 byte order mark (as Windows editors and PowerShell write it)", async () => {
    const withBom = path.join(dataDir, "bom.json");
    fs.writeFileSync(withBom, "\uFEFF{}");
    const verify = await run("verify", withBom);
    // read (a mismatch, exit 1), not "cannot read" (exit 2)
    expect(verify.stderr).not.toMatch(/cannot read/);
    expect(verify.status).toBe(1);
  });

  it("verify refuses a saved evaluation that names a member twice: JSON.parse keeps the last, its reader may believe the first", async () => {
    const result = toPreflightResult(evaluate({ facts: buildFacts({ repository: repo({ exists: false }) }), policy: STRICT_POLICY, now: NOW }), null);
    expect(result.decision).toBe("BLOCK");
    const [once, twice] = [path.join(dataDir, "once.json"), path.join(dataDir, "twice.json")];
    fs.writeFileSync(once, JSON.stringify(result));
    fs.writeFileSync(twice, JSON.stringify(result).replace('"decision":"BLOCK"', '"decision":"PASS","decision":"BLOCK"'));
    const [valid, verify] = await Promise.all([run("verify", once), run("verify", twice)]);
    expect(valid.status).toBe(0);
    expect(verify.status).toBe(1);
    expect(verify.stderr.trim()).toBe("mismatch: decision is stated more than once; an evaluation names each member once");
    expect(verify.stdout).not.toMatch(/verified/);
  });

  it("verify refuses a file far larger than any evaluation in one line, before parsing it could exhaust the heap", async () => {
    const huge = path.join(dataDir, "huge.json");
    fs.writeFileSync(huge, `{${" ".repeat(65 * 2 ** 20)}}`);
    const verify = await run("verify", huge);
    expect(verify.status).toBe(2);
    expect(verify.stderr.trim()).toBe(`cannot read ${huge}: it is over 64 MiB, and no evaluation is`);
  });

  it("a dump of which no entry can be read fails (exit 1) instead of reporting success; one bad entry among good ones is a warning", async () => {
    const alien = path.join(dataDir, "alien.json");
    fs.writeFileSync(alien, JSON.stringify({ servers: [{ nothing: 1 }, { like: "a listing" }] }));
    const failed = await run("ingest", "--file", alien);
    expect(failed.status, failed.stderr).toBe(1);
    expect(failed.stderr.trim()).toMatch(/^ingest failed: every one of the 2 entries was rejected, first: .+; no server was written or delisted$/);

    const mixed = path.join(dataDir, "mixed.json");
    const good = { server: { name: "io.github.ops/one", description: "one", version: "1.0.0" }, _meta: {} };
    fs.writeFileSync(mixed, JSON.stringify({ servers: [good, { nothing: 1 }] }));
    const warned = await run("ingest", "--file", mixed);
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/^1 entries rejected, first: /m);
  });

  /** A migrated embedded database of its own, with `setup` run on it (the scripts then open it themselves). */
  async function databaseWith(name: string, ...setup: string[]): Promise<string> {
    const url = `pglite:${migratedCopy(path.join(dataDir, name, "pglite"))}`;
    const handle = await openDatabase(url);
    try {
      for (const statement of setup) await handle.db.execute(sql.raw(statement));
    } finally {
      await handle.close();
    }
    return url;
  }

  async function syncsOf(url: string) {
    const handle = await openDatabase(url);
    try {
      const res = await handle.db.execute(sql`select status, error, (select count(*)::int from servers) as servers from registry_syncs order by id`);
      return ((res as unknown as { rows?: unknown[] }).rows ?? res) as { status: string; error: string | null; servers: number }[];
    } finally {
      await handle.close();
    }
  }

  const twoServers = () => {
    const file = path.join(dataDir, "two-servers.json");
    const entry = (name: string) => ({ server: { name, description: name, version: "1.0.0" }, _meta: {} });
    fs.writeFileSync(file, JSON.stringify({ servers: [entry("io.github.ops/one"), entry("io.github.ops/two")] }));
    return file;
  };

  it("a write the database refuses (its disk full) fails in one line with the database's reason, also on the sync's record", async () => {
    const url = await databaseWith(
      "refusing",
      "create function refuse() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device'; end $$",
      "create trigger refuse before insert on servers for each row execute function refuse()",
    );
    const ingest = await runOn(url, "ingest", "--file", twoServers());
    expect(ingest.status).toBe(1);
    // not drizzle's "Failed query: insert into … params: …", which carries every row and hides the reason
    expect(ingest.stderr.trim()).toMatch(/^ingest failed: could not extend file: No space left on device \(in: insert into "servers" .{0,80}\)$/);
    const [sync] = await syncsOf(url);
    expect(sync).toMatchObject({ status: "failed", servers: 0 });
    expect(sync.error).toMatch(/^could not extend file: No space left on device \(in: insert into "servers"/);
  });

  it("an ingest killed part-way leaves no half-written catalog and no sync that says it is still running", async () => {
    // the catalog write stalls inside its transaction, where the process is then killed (SIGKILL: no handler runs); the
    // trigger first leaves a file in the data directory, so the kill comes once the write has begun, not after a guess
    const url = await databaseWith(
      "killed",
      "create function stall() returns trigger language plpgsql as $$ begin execute format('copy (select 1) to %L', current_setting('data_directory') || '/stalled'); perform pg_sleep(600); return new; end $$",
      "create trigger stall before insert on servers for each row execute function stall()",
    );
    const stalled = path.join(url.slice("pglite:".length), "stalled");
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" };
    delete env.TEST_DATABASE_URL;
    // its own process group: tsx runs the script in a child process, and both go
    const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/ingest.ts", "--file", twoServers()], { env, stdio: "ignore", detached: true });
    const exited = new Promise((resolve) => child.on("close", resolve));
    await expect.poll(() => fs.existsSync(stalled) || child.exitCode !== null, { timeout: 120_000, interval: 100 }).toBe(true);
    expect(child.exitCode, "the ingest ended before its catalog write").toBeNull();
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    // the killed script process is reaped a moment after its parent
    await expect.poll(() => pgliteLockHolder(url.slice("pglite:".length)), { timeout: 10_000 }).toBeNull();

    const handle = await openDatabase(url);
    try {
      const res = await handle.db.execute(sql`select status, error, (select count(*)::int from servers) as servers from registry_syncs order by id`);
      expect((res as unknown as { rows: unknown[] }).rows).toEqual([]);
      await handle.db.execute(sql.raw("drop trigger stall on servers"));
    } finally {
      await handle.close();
    }
    const again = await runOn(url, "ingest", "--file", twoServers());
    expect(again.status, again.stderr).toBe(0);
    expect(await syncsOf(url)).toEqual([{ status: "succeeded", error: null, servers: 2 }]);
  });

  it("a server file left behind by a stopped server does not take the jobs: only the server holding the database's lock does", async () => {
    // server.json names a live process (its pid reused: routine in a container) whose address answers nothing, and no
    // process holds the PGlite lock; the job must do the work itself, not report "fetch failed"
    const dir = fs.mkdtempSync(path.join(dataDir, "stopped-"));
    fs.writeFileSync(path.join(dir, "server.json"), JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:9", secret: "x" }));
    const made = await runWith({ DATA_DIR: dir, DATABASE_URL: `pglite:${migratedCopy(path.join(dir, "pglite"))}` }, "create-key", "--email", "left@example.com");
    expect(made.stderr).not.toMatch(/fetch failed/);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^key \(shown once, store it now\): /m);
  });

  it("db:migrate on an embedded database another process holds says so in one line, not a stack trace", async () => {
    // the running server's lock (this test process stands in for it): the server migrated the database when it started
    const held = path.join(dataDir, "held", "pglite");
    fs.mkdirSync(path.dirname(held), { recursive: true });
    fs.writeFileSync(`${held}.lock`, String(process.pid));
    // and, at the same time, the suite's own database, which no process holds
    const [migrate, fresh] = await Promise.all([runOn(`pglite:${held}`, "migrate"), run("migrate")]);
    expect(migrate.status).toBe(1);
    expect(migrate.stderr.trim().split("\n")).toHaveLength(1);
    expect(migrate.stderr).toMatch(new RegExp(`^db:migrate: the embedded database in \\S+ is open in process ${process.pid}`));

    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/^migrations applied: PGlite at /m);
  });
}, 240_000); // each script is a fresh tsx process: seconds apiece, and some tests run five
