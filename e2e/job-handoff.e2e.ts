import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "./helpers/server";
import { runScript, type ScriptRun } from "@/tests/helpers/run-script";

/** A command-line job on the data directory `dataDir`, as `npm run` starts it there. */
function runJob(dataDir: string, script: string, ...args: string[]): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  for (const k of ["DATABASE_URL", "TEST_DATABASE_URL", "TEST_DB"]) delete env[k];
  return runScript(env, script, ...args);
}

// `npm start`, then at once `npm run ingest` or `key:create` in another terminal: the server holds the embedded
// database's lock for the seconds it takes to create and migrate it, and a job started then must hand its work
// to the server (PGlite is one process's database), not fail with "open in process N; start it or stop it".
describe("a job started while the server opens the embedded database", () => {
  it("is handed to the server as soon as the server holds the database", async () => {
    let job: ScriptRun | undefined;
    const server = await startServer(
      {},
      {
        whileStarting: async (dataDir) => {
          const lock = path.join(dataDir, "pglite.lock");
          for (const end = Date.now() + 30_000; !fs.existsSync(lock); await new Promise((r) => setTimeout(r, 10))) {
            if (Date.now() > end) throw new Error("the server took no lock in 30 s");
          }
          job = await runJob(dataDir, "create-key", "--email", "early@example.com");
        },
      },
    );
    try {
      expect(job?.stderr).not.toMatch(/open in process/);
      expect(job?.status, job?.stderr).toBe(0);
      expect(job?.stdout).toMatch(/^key \(shown once, store it now\): \S{20,}$/m);
      // the key was made in the server's database: it works there
      const key = /^key \(shown once, store it now\): (\S+)$/m.exec(job!.stdout)![1];
      const credits = await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": key } });
      expect(credits.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
