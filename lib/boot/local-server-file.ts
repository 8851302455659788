import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { dataDir } from "@/lib/config";

/**
 * While the server runs on the embedded database, command-line jobs (ingest,
 * harvest, deliver) must go through it instead of opening PGlite a second time.
 * This file tells them where the server is and the secret its cron routes take.
 */
export interface LocalServerInfo {
  pid: number;
  url: string;
  secret: string;
}

export const localServerFile = () => path.join(dataDir(), "server.json");

/**
 * Where jobs on this machine reach the server: the address it listens on (scripts/server.mjs binds HOSTNAME,
 * which Docker exports as the container's name), or loopback when it listens on every interface.
 */
export function localServerUrl(hostname: string | undefined, port: string): string {
  if (!hostname || hostname === "0.0.0.0" || hostname === "::") return `http://127.0.0.1:${port}`;
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

export function writeLocalServerInfo(url: string): LocalServerInfo {
  const info: LocalServerInfo = { pid: process.pid, url, secret: process.env.CRON_SECRET || randomBytes(24).toString("hex") };
  fs.mkdirSync(dataDir(), { recursive: true });
  fs.writeFileSync(localServerFile(), JSON.stringify(info), { mode: 0o600 });
  // a server that stops takes its file (and the secret in it) with it, so no job reads a stopped server's
  // address; one that is killed outright leaves it, and readers check the pid and the database's lock
  const file = localServerFile();
  process.once("exit", () => removeIfOwn(file));
  return info;
}

function removeIfOwn(file: string): void {
  try {
    // another server may have started on this directory since, and written its own
    if ((JSON.parse(fs.readFileSync(file, "utf8")) as LocalServerInfo).pid === process.pid) fs.unlinkSync(file);
  } catch {
    /* gone already, or unreadable: nothing of ours to remove */
  }
}

export function readLocalServerInfo(): LocalServerInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(localServerFile(), "utf8")) as LocalServerInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

/** The secret that protects /api/cron/*: CRON_SECRET, or the local server's own. */
export function acceptedCronSecret(): string | null {
  if (process.env.CRON_SECRET) return process.env.CRON_SECRET;
  try {
    const info = JSON.parse(fs.readFileSync(localServerFile(), "utf8")) as LocalServerInfo;
    return info.pid === process.pid ? info.secret : null;
  } catch {
    return null;
  }
}
