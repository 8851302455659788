// The production HTTP server: Next.js behind a thin Node listener whose only job
// is to tell route handlers the caller's real socket address. Without it a client
// could send its own x-forwarded-for and reset the anonymous allowance.
import http from "node:http";
import { fillOptionalManifests } from "./optional-manifests.mjs";
import { answerClientError, answerUnroutable } from "./unroutable-request.mjs";

// The production server, however it is started (npm start sets this too, a process manager may not): without
// it Next.js runs parts of its development paths and answers a malformed URL with a 500. Set before Next loads.
process.env.NODE_ENV ??= "production";
// the socket header below is this server's word (lib/api/socket-ip.ts): route handlers believe it only with this
process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER = "1";
const { default: next } = await import("next");

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
const trustProxy = process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true";
process.env.PORT = String(port);
// npm here omits "resolved" from the lockfile; Next mistakes that for missing SWC binaries.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= "1";

fillOptionalManifests();
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

// Node's limit on receiving a whole request (300 s by default; its headers: 60 s), answered 408 by
// answerClientError. The check runs every 30 s by default: a short limit is checked more often.
const requestTimeout = Number(process.env.REQUEST_TIMEOUT_MS || 300_000);
const timeouts = {
  requestTimeout,
  headersTimeout: Math.min(60_000, requestTimeout),
  connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
};

const server = http.createServer(timeouts, (req, res) => {
  delete req.headers["x-mcp-preflight-socket-ip"];
  if (!trustProxy) {
    delete req.headers["x-forwarded-for"];
    delete req.headers["x-real-ip"];
  }
  req.headers["x-mcp-preflight-socket-ip"] = req.socket.remoteAddress ?? "unknown";
  if (answerUnroutable(req, res)) return;
  handle(req, res);
});
server.on("clientError", answerClientError);
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`mcp-preflight listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

// The database handle lib/db/client.ts keeps for this process (opened by boot, in this same process).
const DB_SLOT = Symbol.for("mcp-preflight.db");

async function closeDatabase() {
  const opening = globalThis[DB_SLOT]?.promise;
  if (opening) await (await opening).close();
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and forwarded by scripts/start.mjs),
  // and the default action of the second would kill it mid-close
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // give in-flight requests a moment, then close the database before exiting: PGlite writes its shutdown
    // checkpoint and releases its lock file; a directory left open starts the next time in crash recovery
    setTimeout(() => {
      closeDatabase()
        .catch((err) => console.error(`closing the database on ${signal}: ${err?.message ?? err}`))
        .finally(() => process.exit(0));
    }, 500);
    // a close that hangs must not keep the process alive
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
