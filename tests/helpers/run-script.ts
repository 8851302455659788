import { spawn } from "node:child_process";

export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command-line job (`scripts/<script>.ts`) in its own process, as `npm run` starts it, with `env`.
 * Asynchronous, not spawnSync: a script takes seconds, and a worker blocked that long misses vitest's own
 * heartbeats ("Timeout calling onTaskUpdate") on a busy machine.
 */
export function runScript(env: NodeJS.ProcessEnv, script: string, ...args: string[]): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", `scripts/${script}.ts`, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
