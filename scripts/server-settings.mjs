// The settings scripts/server.mjs reads itself, checked before anything starts. Unchecked, Node threw for a port or
// a timeout it cannot use only when the server began to listen, and Next.js's handlers logged the stack trace and
// kept the process running, listening nowhere (lib/config.ts environmentProblems checks the service's others).

/** A whole-number setting from `min` to `max`, `dflt` when unset or empty; an Error naming it otherwise. */
function wholeNumber(env, name, dflt, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (n >= min && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? `, ${min} or more` : ` from ${min} to ${max}`;
  throw new Error(`${name} must be a whole number${range} (got ${JSON.stringify(raw)})`);
}

/** PORT, HOSTNAME and REQUEST_TIMEOUT_MS (README "Configuration"); throws an Error whose message names a bad one. */
export function serverSettings(env = process.env) {
  return {
    port: wholeNumber(env, "PORT", 3000, 1, 65535),
    hostname: env.HOSTNAME || "0.0.0.0",
    requestTimeout: wholeNumber(env, "REQUEST_TIMEOUT_MS", 300_000, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** One line for an error of the listening socket (the port taken, HOSTNAME not an address of this machine, …). */
export function listenFailureMessage(err, hostname, port) {
  const where = `cannot listen on ${hostname}:${port}`;
  if (err?.code === "EADDRINUSE") return `${where}: the port is in use by another process (stop it, or set PORT to another port)`;
  if (err?.code === "EACCES") return `${where}: not allowed (ports below 1024 need privileges: set PORT to another port)`;
  return `${where}: ${err?.message ?? err} (HOSTNAME is the address to listen on: 127.0.0.1, 0.0.0.0 or one of this machine's)`;
}
