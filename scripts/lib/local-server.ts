import { driverFor, pgliteLockHolder } from "@/lib/db/client";
import { readLocalServerInfo } from "@/lib/boot/local-server-file";
import { pidAlive } from "@/lib/boot/pid-alive";

/**
 * The running local server that holds the embedded database, if any: command-line
 * jobs then send their work to its protected routes instead of opening PGlite a
 * second time (DESIGN §2). Null on Postgres or when no server is running.
 */
export function localServer(): { url: string; pid: number; fetch: (path: string, init?: RequestInit) => Promise<Response> } | null {
  const { kind, target } = driverFor(process.env.DATABASE_URL);
  if (kind !== "pglite") return null;
  const info = readLocalServerInfo();
  // the server file outlives its server, and its pid may since name another process (a container's pids repeat
  // on every start): it is the server only while it holds the database's lock, else the job opens PGlite itself
  if (!info || pgliteLockHolder(target) !== info.pid) return null;
  return {
    url: info.url,
    pid: info.pid,
    fetch: (path, init = {}) =>
      fetchWhileStarting(info.pid, `${info.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${info.secret}` } }),
  };
}

/** How long a job retries a server that holds the database but does not listen yet. */
const LISTEN_WAIT_MS = 15_000;

/**
 * fetch, retried while the connection is refused and the server's process runs: a server writes its file as it
 * starts opening the database (lib/boot/boot.ts), which may be a moment before it listens.
 */
async function fetchWhileStarting(pid: number, url: string, init: RequestInit): Promise<Response> {
  for (const end = Date.now() + LISTEN_WAIT_MS; ; await new Promise((r) => setTimeout(r, 200))) {
    try {
      return await fetch(url, init);
    } catch (err) {
      const refused = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code === "ECONNREFUSED";
      if (!refused || Date.now() > end || !pidAlive(pid)) throw err;
    }
  }
}


/**
 * runJob's `viaServer` for a job that POSTs `body` as JSON to one of the running server's admin routes:
 * false when no server holds the database, else the server's answer (an error status throws).
 */
export async function postToLocalServer<T>(path: string, body: unknown): Promise<T | false> {
  const server = localServer();
  if (!server) return false;
  const res = await server.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`HTTP ${res.status} ${answer.message ?? ""}`);
  return answer as T;
}
