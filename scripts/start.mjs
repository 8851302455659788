// `npm start`: build when the build is missing or older than the sources, then serve.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

process.env.NODE_ENV = "production";
// npm here omits "resolved" from the lockfile; Next mistakes that for missing SWC binaries.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= "1";
const SOURCES = ["app", "lib", "drizzle", "public", "package.json", "next.config.ts", "instrumentation.ts", "tsconfig.json"];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, e)));
  return max;
}

const buildId = ".next/BUILD_ID";
const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (!built || SOURCES.some((s) => newestMtime(s) > built)) {
  console.log(built ? "sources changed since the last build: rebuilding" : "no build yet: building (about a minute)");
  const r = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import("./server.mjs");
