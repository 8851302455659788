import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// Integration tests run once per database: always on embedded PGlite, and on the
// Postgres server too when TEST_DATABASE_URL is set (CI sets it).
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Two test files at a time (each worker has its own database, tests/helpers/db.ts): the default on two
    // cores is one, which leaves the second core idle while a file waits on Postgres or a fake upstream.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["tests/helpers/setup.ts"],
    globalSetup: ["tests/helpers/pglite-image.ts"],
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"] },
      },
      ...databases.map((db) => ({
        extends: true as const,
        test: {
          name: db,
          include: ["tests/integration/**/*.test.ts"],
          env: { TEST_DB: db },
        },
      })),
    ],
  },
});
