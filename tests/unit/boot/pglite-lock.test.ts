import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DatabaseInUseError, openDatabase } from "@/lib/db/client";
import { pidMayHaveWritten } from "@/lib/boot/pid-alive";
import { register } from "@/instrumentation";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A live process started now, standing in for whatever reused a crashed server's pid. */
function newProcess(): number {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

function lockWrittenAt(pid: number, at: Date): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-lock-"));
  dirs.push(dir);
  const target = path.join(dir, "pglite");
  fs.writeFileSync(`${target}.lock`, String(pid));
  fs.utimesSync(`${target}.lock`, at, at);
  return target;
}

describe.skipIf(process.platform !== "linux")("the embedded database's lock", () => {
  it("is taken over when its pid now names a process started after the lock was written (a crashed server's pid reused)", async () => {
    const target = lockWrittenAt(newProcess(), new Date(Date.now() - 3600_000));
    const handle = await openDatabase(`pglite:${target}`);
    expect(fs.readFileSync(`${target}.lock`, "utf8")).toBe(String(process.pid));
    await handle.close();
  });

  it("still refuses while the process that wrote it is alive", async () => {
    // this test process's parent started before the lock was written: it could be the holder
    const target = lockWrittenAt(process.ppid, new Date());
    await expect(openDatabase(`pglite:${target}`)).rejects.toBeInstanceOf(DatabaseInUseError);
  });

  it("a server started on it while another process holds it ends with one line saying so, not a server answering 500 for good", async () => {
    const target = lockWrittenAt(process.ppid, new Date());
    const saved = { ...process.env };
    Object.assign(process.env, { NEXT_RUNTIME: "nodejs", DATABASE_URL: `pglite:${target}`, DATA_DIR: path.dirname(target), LOG_FORMAT: "text" });
    delete process.env.VERCEL;
    const exit = vi.spyOn(process, "exit").mockImplementation((() => {
      throw new Error("exited");
    }) as never);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(register()).rejects.toThrow("exited");
      expect(exit).toHaveBeenCalledWith(1);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^\\[error\\] the server cannot start error=the embedded database in \\S+ is open in process ${process.ppid} fix=stop that process`))]);
    } finally {
      exit.mockRestore();
      logged.mockRestore();
      process.env = saved;
    }
  });

  it("pidMayHaveWritten: only a live process that started no later than the write", () => {
    expect(pidMayHaveWritten(process.pid, Date.now())).toBe(true);
    expect(pidMayHaveWritten(newProcess(), Date.now() - 3600_000)).toBe(false);
    expect(pidMayHaveWritten(2 ** 22 + 7, Date.now())).toBe(false);
  });
});
