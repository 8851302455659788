import fs from "node:fs";

/** Whether a process with this pid exists on this machine (EPERM: it does, but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Linux's clock ticks per second for /proc (USER_HZ, 100 on every Linux ABI Node runs on)
const USER_HZ = 100;
// /proc/stat's boot time has whole seconds, and ticks round: a start this much after a write still counts as before
const START_SLACK_MS = 2000;

/**
 * The fields of /proc/<pid>/stat from field 3 (state) on, so field N is at index N − 3; null where there is no
 * /proc or no such process. (The command name before them is parenthesised and may hold spaces.)
 */
export function procStatFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * When the process with this pid started, in clock ticks since boot, as /proc gives it; null where that cannot be
 * read. Two processes that held the same pid in turn differ in it, so a pid with its start names one process.
 */
export function processStartTicks(pid: number): string | null {
  // starttime is field 22
  const ticks = procStatFields(pid)?.[22 - 3];
  return ticks && /^\d+$/.test(ticks) ? ticks : null;
}

/** When the process with this pid started (ms since the epoch), from /proc; null where that cannot be read. */
export function processStartMs(pid: number): number | null {
  try {
    const startTicks = Number(processStartTicks(pid) ?? NaN);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(bootSeconds)) return null;
    return bootSeconds * 1000 + (startTicks * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` may be the process that wrote a pid file at `writtenAtMs`: it is alive and did not start after
 * the write. A crashed process's pid is soon another process's (in a container, the same few pids come back on
 * every start); that one started later, so it holds nothing. Where start times cannot be read, alive is enough.
 */
export function pidMayHaveWritten(pid: number, writtenAtMs: number): boolean {
  if (!pidAlive(pid)) return false;
  const started = processStartMs(pid);
  return started === null || started <= writtenAtMs + START_SLACK_MS;
}
