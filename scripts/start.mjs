// `npm start`: build when the build is missing or older than the sources, then serve.
import fs from "node:fs";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

process.env.NODE_ENV = "production";
// npm here omits "resolved" from the lockfile; Next mistakes that for missing SWC binaries.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= "1";
const SOURCES = ["app", "lib", "drizzle", "public", "package.json", "next.config.ts", "instrumentation.ts", "middleware.ts", "tsconfig.json"];

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
  console.log(built ? "sources changed since the last build: rebuilding" : "no build yet: building (a few minutes)");
  const r = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// V8's heap flags take effect only when a process starts, so the server is a child started with them.
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
  // the server stops itself on these (releasing PGlite's lock); this process waits for it
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm start` runs this through `sh -c`, and a SIGTERM sent to npm alone (a process manager, `docker stop` with npm
// as the container's first process) ends npm and that shell without reaching this process: orphaned, it and the
// server kept running, holding the port and the embedded database. Orphaned, this process stops the server as the
// signal would have.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) server.kill("SIGTERM");
}, 500).unref();
