// The settings scripts/server.mjs reads itself, checked before anything starts. Unchecked, Node threw for a port or
// a timeout it cannot use only when the server began to listen, and Next.js's handlers logged the stack trace and
// kept the process running, listening nowhere (lib/config.ts environmentProblems checks the service's others).

/**
 * The longest time Node keeps a timer (setTimeout, setInterval, AbortSignal.timeout): past it each fires after 1 ms,
 * so a larger interval or timeout is a tight loop or an instant timeout, with only a warning on stderr.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Why `raw`, the value of setting `name`, is not a whole number from `min` to `max` (no max: any above `min`); null
 * when it is one, or unset (empty is unset). lib/config.ts environmentProblems words every other setting with it.
 */
export function wholeNumberProblem(name, raw, min, max) {
  if (raw === undefined || raw === "") return null;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (n >= min && n <= (max ?? Number.MAX_SAFE_INTEGER)) return null;
  return `${name} must be a whole number${max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`} (got ${JSON.stringify(raw)})`;
}

/** A whole-number setting, `dflt` when unset or empty; an Error naming it otherwise. */
function wholeNumber(env, name, dflt, min, max) {
  const problem = wholeNumberProblem(name, env[name], min, max);
  if (problem) throw new Error(problem);
  return env[name] ? Number(env[name]) : dflt;
}

/** PORT, HOSTNAME and REQUEST_TIMEOUT_MS (README "Configuration"); throws an Error whose message names a bad one. */
export function serverSettings(env = process.env) {
  return {
    port: wholeNumber(env, "PORT", 3000, 1, 65535),
    hostname: env.HOSTNAME || "0.0.0.0",
    requestTimeout: wholeNumber(env, "REQUEST_TIMEOUT_MS", 300_000, 0, MAX_TIMER_MS),
  };
}

/** One line for an error of the listening socket (the port taken, HOSTNAME not an address of this machine, …). */
export function listenFailureMessage(err, hostname, port) {
  const where = `cannot listen on ${hostname}:${port}`;
  if (err?.code === "EADDRINUSE") return `${where}: the port is in use by another process (stop it, or set PORT to another port)`;
  if (err?.code === "EACCES") return `${where}: not allowed (ports below 1024 need privileges: set PORT to another port)`;
  return `${where}: ${err?.message ?? err} (HOSTNAME is the address to listen on: 127.0.0.1, 0.0.0.0 or one of this machine's)`;
}
