import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// Integration tests run once per database: always on embedded PGlite, and on the
// Postgres server too when TEST_DATABASE_URL is set (CI sets it).
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

// Test files share their worker's loaded modules (forks with isolate: false): evaluating lib/, drizzle, zod and
// next/server again for each of ~200 files was a third of the suite's minutes. A file that replaces a module
// (vi.mock) cannot share it, since the real one is already loaded: those files, found here so that none is
// forgotten, run isolated in worker threads (vitest has one pool of each kind per run, so the pool is what
// chooses isolation). tests/helpers/setup.ts undoes what a file leaves behind (environment variables, spies).
function testFiles(dir: string): { shared: string[]; isolated: string[] } {
  const files = fs.readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
  const mocks = (f: string) => /\bvi\.(do)?mock\(/.test(fs.readFileSync(path.join(root, dir, f), "utf8"));
  const rel = (f: string) => `${dir}/${f.split(path.sep).join("/")}`;
  return { shared: files.filter((f) => !mocks(f)).map(rel), isolated: files.filter(mocks).map(rel) };
}
const unit = testFiles("tests/unit");
const integration = testFiles("tests/integration");

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Two test files at a time (each worker has its own database, tests/helpers/db.ts): the default on two
    // cores is one, which leaves the second core idle while a file waits on Postgres or a fake upstream.
    maxWorkers: 2,
    // The pool is one per vitest process, so isolation is chosen by pool: forks share modules between files
    // (see above), threads isolate each file.
    pool: "forks",
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["tests/helpers/setup.ts"],
    globalSetup: ["tests/helpers/pglite-image.ts"],
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: unit.shared } },
      { extends: true, test: { name: "unit-isolated", pool: "threads", include: unit.isolated } },
      ...databases.flatMap((db) => [
        {
          extends: true as const,
          test: {
            name: db,
            include: integration.shared,
            env: { TEST_DB: db },
          },
        },
        {
          extends: true as const,
          test: {
            name: `${db}-isolated`,
            pool: "threads",
            include: integration.isolated,
            env: { TEST_DB: db },
          },
        },
      ]),
    ],
  },
});
