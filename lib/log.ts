// A small structured logger: one line per event, JSON fields when not on a TTY.
// Never pass API keys, secrets or request bodies to it.
type Fields = Record<string, unknown>;

function emit(level: "info" | "warn" | "error", msg: string, fields?: Fields) {
  if (process.env.LOG_LEVEL === "silent") return;
  const line = process.stdout.isTTY || process.env.LOG_FORMAT === "text"
    ? `[${level}] ${msg}${fields ? " " + Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ") : ""}`
    : JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  (level === "error" ? console.error : level === "warn" ? console.warn : console.log)(line);
}

export const log = {
  info: (msg: string, fields?: Fields) => emit("info", msg, fields),
  warn: (msg: string, fields?: Fields) => emit("warn", msg, fields),
  error: (msg: string, fields?: Fields) => emit("error", msg, fields),
};
