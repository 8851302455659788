import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

// Same rule as `npm start`: build when there is no build or a source is newer than it.
const SOURCES = ["app", "lib", "drizzle", "public", "package.json", "next.config.ts", "instrumentation.ts", "middleware.ts", "tsconfig.json"];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, e)));
  return max;
}

export default function setup() {
  const buildId = ".next/BUILD_ID";
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (built && !SOURCES.some((s) => newestMtime(s) > built)) return;
  console.log("e2e: building the app once (next build)");
  const r = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_IGNORE_INCORRECT_LOCKFILE: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed with exit code ${r.status}`);
}
