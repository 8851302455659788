// Every tunable of the service lives here, read from the environment once per call
// so tests can change process.env between cases without module reloads.

export const REGISTRY_PAGE_LIMIT = 100;
export const UPSTREAM_TIMEOUT_MS = 15_000;
export const UPSTREAM_MAX_RETRIES = 4;

/** Official MCP registry; override with REGISTRY_URL (tests point it at a local fake). */
export const DEFAULT_REGISTRY_URL = "https://registry.modelcontextprotocol.io";

export function registryUrl(): string {
  return (process.env.REGISTRY_URL || DEFAULT_REGISTRY_URL).replace(/\/+$/, "");
}

/** Where the embedded database keeps its files when DATABASE_URL is unset. */
export function dataDir(): string {
  return process.env.DATA_DIR || ".data";
}

export function cronSecret(): string | undefined {
  return process.env.CRON_SECRET || undefined;
}

/** Trust x-forwarded-for only behind a proxy we control (DESIGN §7). */
export function trustProxy(): boolean {
  return process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true";
}

export function siteUrl(): string {
  return (process.env.SITE_URL || process.env.BASE_URL || "http://localhost:3000").replace(/\/+$/, "");
}
