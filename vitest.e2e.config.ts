import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// Browser tests (npm run test:e2e): build once, start the real server on a free
// port with a temporary DATA_DIR, drive Debian's Chromium through playwright-core.
export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/helpers/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // Each file starts its own server on a free port with its own DATA_DIR, so two run at once (the cores
    // otherwise wait on the browser and the server in turn). A pinned E2E_PORT allows one server at a time.
    fileParallelism: !process.env.E2E_PORT,
    maxWorkers: 2,
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
  },
});
