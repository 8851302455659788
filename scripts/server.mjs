// The production HTTP server: Next.js behind a thin Node listener whose only job
// is to tell route handlers the caller's real socket address. Without it a client
// could send its own x-forwarded-for and reset the anonymous allowance.
import http from "node:http";
import { fillOptionalManifests } from "./optional-manifests.mjs";
import { answerClientError, answerUnroutable, escapeUndecodableImagePath } from "./unroutable-request.mjs";
import { listenFailureMessage, serverSettings } from "./server-settings.mjs";

// The production server, however it is started (npm start sets this too, a process manager may not): without
// it Next.js runs parts of its development paths and answers a malformed URL with a 500. Set before Next loads.
process.env.NODE_ENV ??= "production";
// the socket header below is this server's word (lib/api/socket-ip.ts): route handlers believe it only with this
process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER = "1";

// The database handle lib/db/client.ts keeps for this process (opened by boot, in this same process).
const DB_SLOT = Symbol.for("mcp-preflight.db");
/** @type {http.Server | undefined} */
let server;
let stopping = false;

let settings;
try {
  settings = serverSettings();
} catch (err) {
  console.error(`mcp-preflight cannot start: ${err.message}`);
  process.exit(1);
}
const { port, hostname, requestTimeout } = settings;

// A start that fails (lib/boot/boot.ts: a setting, DATABASE_URL, DATA_DIR, the database itself) stops the process
// with one line. Next.js runs the boot in the background and only logs its failure: the process would keep
// running, answering every request (/v1/health too) with a plain-text 500, and never try again.
globalThis[Symbol.for("mcp-preflight.boot")] = (started) =>
  started.catch((err) => stop(1, `mcp-preflight cannot start: ${String(err?.message ?? err).replace(/\s*\n\s*/g, " ")}`));

const { default: next } = await import("next");
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
const timeouts = {
  requestTimeout,
  headersTimeout: Math.min(60_000, requestTimeout),
  connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
};

server = http.createServer(timeouts, (req, res) => {
  delete req.headers["x-mcp-preflight-socket-ip"];
  if (!trustProxy) {
    delete req.headers["x-forwarded-for"];
    delete req.headers["x-real-ip"];
  } else if (req.headers["x-forwarded-for"] === undefined && req.headers["x-real-ip"] !== undefined) {
    // a proxy naming the client in X-Real-IP alone (nginx's usual `proxy_set_header X-Real-IP $remote_addr`):
    // Next.js would fill in the missing x-forwarded-for with this socket's address, the proxy's own, and every
    // keyless caller would count as the proxy (lib/api/client-ip.ts believes x-forwarded-for first)
    req.headers["x-forwarded-for"] = req.headers["x-real-ip"];
  }
  req.headers["x-mcp-preflight-socket-ip"] = req.socket.remoteAddress ?? "unknown";
  if (answerUnroutable(req, res)) return;
  escapeUndecodableImagePath(req);
  closeAfterUnreadBody(req, res);
  sendHeadWithFirstChunk(res);
  handle(req, res);
});
server.on("clientError", answerClientError);
// a port in use, a HOSTNAME that is no address of this machine: one line and exit 1, not a stack trace
server.on("error", (err) => stop(1, `mcp-preflight cannot start: ${listenFailureMessage(err, hostname, port)}`));

// Next.js sends a response's headers on their own (flushHeaders) before its first body chunk, and the chunked
// encoding's end after it: two or three socket writes, each a packet the client must wake for. Corked from the
// headers until the event loop's next check phase, a response written in one go (every JSON answer) leaves in
// one write; a streamed one (a page, an MCP event stream) sends its first chunk with its headers and the rest
// as Next writes them.
function sendHeadWithFirstChunk(res) {
  const flushHeaders = res.flushHeaders;
  res.flushHeaders = function () {
    res.flushHeaders = flushHeaders;
    res.cork();
    setImmediate(() => res.uncork());
    return flushHeaders.call(this);
  };
}
/**
 * A request answered before its body was received (a body over a route's limit: 413, the rest not read) ends its
 * connection, saying so (`Connection: close`). Node kept it open as keep-alive and then dropped it, so a client
 * that sent its next request on it (undici, Node's fetch, does) waited for an answer that never came.
 */
function closeAfterUnreadBody(req, res) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    res.writeHead = writeHead;
    if (!req.complete) res.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  };
}
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`mcp-preflight listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

async function closeDatabase() {
  const opening = globalThis[DB_SLOT]?.promise;
  if (opening) await (await opening).close();
}

/**
 * Stops the process: stops listening, gives in-flight requests a moment, then closes the database before exiting
 * (PGlite writes its shutdown checkpoint and releases its lock file; a directory left open starts the next time
 * in crash recovery). A failed start (`message`) exits at once when no database is open.
 */
function stop(code, message) {
  if (message) console.error(message);
  if (stopping) return;
  stopping = true;
  server?.close();
  if (message && !globalThis[DB_SLOT]?.promise) process.exit(code);
  setTimeout(() => {
    closeDatabase()
      .catch((err) => console.error(`closing the database: ${err?.message ?? err}`))
      .finally(() => process.exit(code));
  }, message ? 0 : 500);
  // a close that hangs must not keep the process alive
  setTimeout(() => process.exit(1), 10_000).unref();
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and forwarded by scripts/start.mjs),
  // and the default action of the second would kill it mid-close
  process.on(signal, () => stop(0));
}
