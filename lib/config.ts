import { MAX_TIMER_MS, wholeNumberProblem } from "../scripts/server-settings.mjs";
// Every tunable of the service lives here, read from the environment once per call
// so tests can change process.env between cases without module reloads.

export const REGISTRY_PAGE_LIMIT = 100;
export const UPSTREAM_TIMEOUT_MS = 15_000;
export const UPSTREAM_MAX_RETRIES = 4;

/**
 * The numeric and on/off settings read from the environment, with the values each takes. A value outside them is
 * refused by name when a process starts (boot, the command-line jobs) instead of being read as the default or as
 * NaN: DELIVER_INTERVAL_MS=5s turned every watch notification off, BURST_LIMIT_PER_KEY=100/min was 60 and
 * UPSTREAM_TIMEOUT_MS=15s failed every upstream call, all without a word. Empty is unset. Times in ms stop at
 * MAX_TIMER_MS: HARVEST_INTERVAL_MS=3000000000 was a harvest every millisecond.
 */
const WHOLE_NUMBER_SETTINGS: Record<string, { min: number; max?: number }> = {
  PORT: { min: 1, max: 65_535 },
  REQUEST_TIMEOUT_MS: { min: 0, max: MAX_TIMER_MS },
  DATABASE_POOL_MAX: { min: 1 },
  HARVEST_INTERVAL_MS: { min: 0, max: MAX_TIMER_MS },
  DELIVER_INTERVAL_MS: { min: 0, max: MAX_TIMER_MS },
  MAINTENANCE_INTERVAL_MS: { min: 0, max: MAX_TIMER_MS },
  FACTS_CACHE_SECONDS: { min: 0 },
  SEARCH_CACHE_SECONDS: { min: 0 },
  BURST_LIMIT_PER_KEY: { min: 1 },
  BURST_LIMIT_PER_ANONYMOUS_IP: { min: 1 },
  HARVEST_BUDGET_REPO: { min: 0 },
  HARVEST_BUDGET_JSPKG: { min: 0 },
  HARVEST_BUDGET_PYPKG: { min: 0 },
  HARVEST_BUDGET_VULN: { min: 0 },
  HARVEST_BUDGET_LIVENESS: { min: 0 },
  HARVEST_CONCURRENCY_JSPKG: { min: 1 },
  HARVEST_CONCURRENCY_PYPKG: { min: 1 },
  HARVEST_CONCURRENCY_VULN: { min: 1 },
  HARVEST_CONCURRENCY_LIVENESS: { min: 1 },
  UPSTREAM_TIMEOUT_MS: { min: 1, max: MAX_TIMER_MS },
  LIVENESS_TIMEOUT_MS: { min: 1, max: MAX_TIMER_MS },
  WEBHOOK_TIMEOUT_MS: { min: 1, max: MAX_TIMER_MS },
  DELIVERY_LEASE_MS: { min: 1, max: MAX_TIMER_MS },
  DELIVERY_CONCURRENCY: { min: 1 },
};
const SWITCH_SETTINGS: Record<string, readonly string[]> = {
  TRUST_PROXY: ["1", "true", "0", "false"],
  BOOT_INGEST: ["0", "1"],
  DEV_MAILBOX: ["0", "1"],
  DATABASE_PREPARED_STATEMENTS: ["0", "1"],
  LOG_FORMAT: ["text", "json"],
  // anything else was node-postgres without a word, even DATABASE_DRIVER=Neon meant for a Neon host of a custom domain
  DATABASE_DRIVER: ["neon"],
};

/**
 * The address settings and the schemes each takes. One without its scheme was taken as it was:
 * SITE_URL=preflight.example.com put links such as `preflight.example.com/servers/…` in every card and made every
 * server page a 500 (its Open Graph image URL does not parse), and REGISTRY_URL or an upstream's failed each call.
 */
const URL_SETTINGS: Record<string, readonly string[]> = {
  SITE_URL: ["http:", "https:"],
  NEXTAUTH_URL: ["http:", "https:"],
  REGISTRY_URL: ["http:", "https:"],
  GITHUB_API_URL: ["http:", "https:"],
  GITHUB_GRAPHQL_URL: ["http:", "https:"],
  NPM_REGISTRY_URL: ["http:", "https:"],
  PYPI_URL: ["http:", "https:"],
  OSV_API_URL: ["http:", "https:"],
  SMTP_URL: ["smtp:", "smtps:"],
};

/** One line per setting of `env` the service cannot use, naming it, what it takes and what it got; none: []. */
export function environmentProblems(env: Record<string, string | undefined> = process.env): string[] {
  const problems: string[] = [];
  for (const [name, { min, max }] of Object.entries(WHOLE_NUMBER_SETTINGS)) {
    const problem = wholeNumberProblem(name, env[name], min, max);
    if (problem) problems.push(problem);
  }
  for (const [name, values] of Object.entries(SWITCH_SETTINGS)) {
    const raw = env[name];
    if (raw !== undefined && raw !== "" && !values.includes(raw)) problems.push(`${name} must be one of ${values.join(", ")} (got ${JSON.stringify(raw)})`);
  }
  for (const [name, schemes] of Object.entries(URL_SETTINGS)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (url && schemes.includes(url.protocol) && url.hostname) continue;
    problems.push(
      name === "SMTP_URL"
        ? "SMTP_URL must be an smtp:// or smtps:// URL, such as smtp://user:pass@host:587 (its value is not shown: it may hold a password)"
        : `${name} must be an absolute http:// or https:// URL (got ${JSON.stringify(raw)})`,
    );
  }
  // each fine alone, refused together: every delivery run would stop at once (runDeliveries), and no notice go out
  if (!problems.some((p) => p.startsWith("WEBHOOK_TIMEOUT_MS ") || p.startsWith("DELIVERY_LEASE_MS "))) {
    const timeoutMs = Number(env.WEBHOOK_TIMEOUT_MS || WEBHOOK_TIMEOUT_MS);
    const leaseMs = Number(env.DELIVERY_LEASE_MS || DELIVERY_LEASE_MS);
    if (leaseMs < minDeliveryLeaseMs(timeoutMs)) {
      problems.push(
        `DELIVERY_LEASE_MS must be at least ${minDeliveryLeaseMs(timeoutMs)} with WEBHOOK_TIMEOUT_MS ${timeoutMs} (an e-mail send, 3 × the timeout, and 2 s) (got ${leaseMs})`,
      );
    }
  }
  return problems;
}

/** Throws one Error naming every setting of the environment the service cannot use (environmentProblems). */
export function assertUsableEnvironment(): void {
  const problems = environmentProblems();
  if (problems.length) throw new Error(problems.join("; "));
}

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

/**
 * The site's public address, in every link it mails or serves: SITE_URL; else on Vercel its own host names,
 * the project's production domain (VERCEL_PROJECT_PRODUCTION_URL), else this deployment's (VERCEL_URL), both given
 * without a scheme; else this server's own port. Without the Vercel step, a deployment with neither SITE_URL nor
 * NEXTAUTH_URL mailed links to http://localhost:3000 (new keys, watch notices and their unsubscribe links).
 */
export function siteUrl(env: Record<string, string | undefined> = process.env): string {
  const vercelHost = env.VERCEL_PROJECT_PRODUCTION_URL || env.VERCEL_URL;
  const url = env.SITE_URL || (vercelHost ? `https://${vercelHost.replace(/^https?:\/\//, "")}` : `http://localhost:${env.PORT || 3000}`);
  return url.replace(/\/+$/, "");
}

/**
 * A warning for a production start on Vercel that can only link to localhost (none of NEXTAUTH_URL, SITE_URL,
 * VERCEL_PROJECT_PRODUCTION_URL, VERCEL_URL set), else null. Not a refusal: the pages still work, only the links
 * mailed and shown do not.
 */
export function siteUrlWarning(env: Record<string, string | undefined> = process.env): string | null {
  if (!env.VERCEL || env.NODE_ENV !== "production") return null;
  if (env.NEXTAUTH_URL || env.SITE_URL || env.VERCEL_PROJECT_PRODUCTION_URL || env.VERCEL_URL) return null;
  return `links in mails and pages point to ${siteUrl(env)}: set SITE_URL to this deployment's address`;
}

// ── Quotas, credits and keys (DESIGN §7, contract Limits) ─────────────────────

export type Tier = "free" | "registered" | "pro";

/** Credits granted per UTC month, by tier; `free` is the keyless tier and has no wallet. */
export const MONTHLY_CREDIT_GRANT: Record<Exclude<Tier, "free">, number> = {
  registered: 1_000,
  pro: 20_000,
};

/** What one call costs, in credits (contract Limits). Unmetered capabilities are not listed. */
export const CREDIT_COSTS = {
  search: 1,
  lookup: 1,
  preflight: 5,
  stamp: 5,
  watch_subscribe: 10,
  lookalikes: 1,
  config_audit: 1,
} as const;

/** Anonymous callers: distinct lookups per client IP per UTC day. */
export const ANONYMOUS_DAILY_LOOKUPS = 10;

/** Config audit and resolve (contract Limits): the largest body, entries per config, the keyless allowance. */
export const AUDIT_MAX_BODY_BYTES = 256 * 1024;
export const AUDIT_MAX_ENTRIES_KEYLESS = 25;
export const AUDIT_MAX_ENTRIES_KEYED = 100;
/** The longest `filename` (a file name or path telling the syntax and client) audit and resolve take. */
export const AUDIT_FILENAME_MAX_CHARS = 500;
/** Distinct configs one keyless client IP may audit per UTC day; the same config again is free. */
export const AUDIT_KEYLESS_CONFIGS_PER_DAY = 1;
/**
 * The largest body of a server action (the audit page's form sent without JavaScript: a config of at most
 * AUDIT_MAX_BODY_BYTES in a multipart form, with room for the form's other fields). next.config.ts gives it to
 * Next.js; middleware.ts sends a larger post back to the page with the API's 413 message.
 */
export const SERVER_ACTION_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Most messages one JSON-RPC batch to /mcp may hold. A batch's requests all run at once and their answers are
 * joined into one body: uncapped, a 48 KB batch of tools/list built a 105 MB answer, and a 1 MiB one (~20,000
 * requests) a string past V8's limit, which left the request hanging with gigabytes held. SDK clients do not
 * batch (batches left MCP in 2025-06-18), and a key's burst window takes 60 metered calls a minute anyway.
 */
export const MCP_MAX_BATCH_MESSAGES = 20;

/** Burst limits, requests per window, per key and per anonymous client IP. */
export const BURST_WINDOW_SECONDS = 60;
// Operators (and the load benchmarks) may raise them with BURST_LIMIT_PER_KEY / BURST_LIMIT_PER_ANONYMOUS_IP.
const positiveInt = (v: string | undefined, dflt: number) => (v && /^[1-9]\d*$/.test(v) ? Number(v) : dflt);
export const BURST_LIMIT_PER_KEY = positiveInt(process.env.BURST_LIMIT_PER_KEY, 60);
export const BURST_LIMIT_PER_ANONYMOUS_IP = positiveInt(process.env.BURST_LIMIT_PER_ANONYMOUS_IP, 30);

/** refresh=if_stale: per account per UTC day, and the cool-down per server. */
export const REFRESH_IF_STALE_PER_DAY = 20;
export const REFRESH_SERVER_COOLDOWN_SECONDS = 600;

/** API keys: `catk_` + 32 base62 random characters + 6-character CRC32 checksum (DESIGN §3). */
export const API_KEY_PREFIX = "catk_";
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
/** Characters of the key kept visible (prefix included), e.g. `catk_3fK9aQ`. */
export const API_KEY_VISIBLE_LENGTH = 11;
/** Longest name an account holder may give a key ("CI", "laptop"), counted after trimming. */
export const API_KEY_NAME_MAX_LENGTH = 40;
/** Live keys one account may hold at once. */
export const MAX_API_KEYS_PER_ACCOUNT = 20;
/** Account mail (sign-in links, replacement keys) one address may be sent per hour: nobody can flood a mailbox through us. */
export const ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR = 5;
/**
 * Sign-in links one client address (an IPv6 client's /64, as the anonymous allowances count it) may ask for per
 * hour, to whatever addresses. A person asks for a few a day; without it one client could have a link mailed to
 * any number of strangers (each address within its own 5 an hour) and fill verification_tokens with day-long
 * rows. 20 leaves room for a household or an office behind one address.
 */
export const SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR = 20;
/** last_used_at is written at most this often per key, so busy keys don't write on every call. */
export const API_KEY_LAST_USED_RESOLUTION_SECONDS = 60;

/** Quota rows (daily charges, counters) older than this many days are pruned. */
export const QUOTA_ROW_RETENTION_DAYS = 3;

// ── Search, evidence cards, reports and the badge (docs/search-and-cards.md) ──

/** GET /v1/search: `q` length after trimming, and `limit` (contract Limits). */
export const SEARCH_QUERY_MIN = 2;
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
/** Candidates the database ranks per search; ties at the cut are then broken by trust score. */
export const SEARCH_CANDIDATES = 200;
/** Search results are kept per process this many seconds (SEARCH_CACHE_SECONDS; 0 turns it off). */
export function searchCacheSeconds(): number {
  const v = process.env.SEARCH_CACHE_SECONDS;
  return v === undefined || v === "" ? 30 : Number(v);
}
/** At most this many cached searches per process (least recently used go first). */
export const SEARCH_CACHE_ENTRIES = 2_000;
/**
 * And at most this many cards in them (least recently used searches go first). A card is about 4 KB of JSON and
 * as much again as the object it is encoded from, so this keeps the cache under about 100 MB; the number of
 * searches alone would not: 2,000 searches of 50 cards would hold about 1 GB, and the case and limit variants of one
 * query fill it for a single charge (a repeat of the query is free).
 */
export const SEARCH_CACHE_CARDS = 10_000;

/**
 * A server's record (facts and listing) is kept per process this many seconds for preflight, stamp and
 * search (FACTS_CACHE_SECONDS; 0 turns it off; lib/facts/record-cache.ts). Stored evidence changes only
 * when ingest or the harvester writes, on a schedule of hours; a write in this process retires the kept
 * records at once (lib/cache/db-memo.ts noteCatalogWrite), so the time to live bounds only how late another
 * process's writes are seen.
 */
export function factsCacheSeconds(): number {
  const v = process.env.FACTS_CACHE_SECONDS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : 30;
}
/** At most this many servers' records (facts and listing, a few KB each) kept per process; least recently used go first. */
export const FACTS_CACHE_ENTRIES = 10_000;
/**
 * Besides those, at most this many names not in the catalog (and names being loaded) kept per process: a caller
 * asking about made-up names pushes out only other such names (lib/cache/db-memo.ts `apart`).
 */
export const FACTS_CACHE_ABSENT_ENTRIES = 1_000;

/** GET /v1/recent page size. */
export const RECENT_LIMIT_DEFAULT = 20;
export const RECENT_LIMIT_MAX = 100;

/** Cache-Control of stats, recent and coverage, in seconds. */
export const REPORT_CACHE_SECONDS = { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 600 } as const;
/** Stats and coverage read the whole catalog, so each process computes them at most this often. */
export const REPORT_MEMO_MS = 60_000;

/** Badge Cache-Control in seconds: embeds are fetched by every page view, so caches keep them an hour. */
export const BADGE_CACHE_SECONDS = { maxAge: 3600, sMaxAge: 3600, staleWhileRevalidate: 86_400 } as const;
/** A 404 badge is cached briefly: the name may be listed soon. */
export const BADGE_NOT_FOUND_CACHE_SECONDS = 300;

/** Magic sign-in links expire after this long. */
export const SIGN_IN_LINK_MAX_AGE_SECONDS = 24 * 60 * 60;

/** SMTP transport for sign-in links and notices; unset → links go to the log and the dev mailbox. */
export function smtpUrl(): string | undefined {
  return process.env.SMTP_URL || undefined;
}

/**
 * How long the mail server gets for each step of a send (connecting, its greeting, every answer): three webhook
 * timeouts, as for a watch notice. nodemailer's own defaults wait up to 10 minutes for a server that stops
 * answering, and a sign-in link or a key mail waited with it. A timeout in SMTP_URL's query wins.
 */
export const mailServerTimeoutMs = () => webhookTimeoutMs() * 3;

export function mailFrom(): string {
  return process.env.MAIL_FROM || "mcp-preflight <no-reply@localhost>";
}

/**
 * The dev mailbox (/dev/mailbox) shows sign-in links to whoever opens it, so it
 * exists only without SMTP and never on a Vercel deployment; DEV_MAILBOX=0 turns it off.
 */
export function devMailboxEnabled(): boolean {
  if (smtpUrl()) return false;
  if (process.env.DEV_MAILBOX === "0") return false;
  if (process.env.VERCEL_ENV === "production" || process.env.VERCEL === "1") return process.env.DEV_MAILBOX === "1";
  return true;
}

// ---------------------------------------------------------------------------
// Outbound requests and the evidence harvester (docs/harvester.md)

/**
 * Test-only exception to "outbound requests reach public addresses only":
 * comma-separated IPs, CIDR ranges or host names (e.g. 127.0.0.1 for the fake
 * upstreams). Empty in production.
 */
export function outboundAllowHosts(): string {
  return process.env.OUTBOUND_ALLOW_HOSTS ?? "";
}

const base = (v: string | undefined, dflt: string) => (v || dflt).replace(/\/+$/, "");

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";
export const DEFAULT_NPM_REGISTRY_URL = "https://registry.npmjs.org";
export const DEFAULT_PYPI_URL = "https://pypi.org";
export const DEFAULT_OSV_API_URL = "https://api.osv.dev";

/** GitHub REST base; GraphQL is `${GITHUB_API_URL}/graphql` (GITHUB_GRAPHQL_URL overrides). */
export const githubApiUrl = () => base(process.env.GITHUB_API_URL, DEFAULT_GITHUB_API_URL);
export const githubGraphqlUrl = () => base(process.env.GITHUB_GRAPHQL_URL, `${githubApiUrl()}/graphql`);
/** GraphQL batching needs a token; without one the harvester falls back to REST (60 requests/hour). */
export const githubToken = () => process.env.GITHUB_TOKEN || undefined;
export const npmRegistryUrl = () => base(process.env.NPM_REGISTRY_URL, DEFAULT_NPM_REGISTRY_URL);
export const pypiUrl = () => base(process.env.PYPI_URL, DEFAULT_PYPI_URL);
export const osvApiUrl = () => base(process.env.OSV_API_URL, DEFAULT_OSV_API_URL);

/** The User-Agent every upstream sees (PyPI asks for contact details in it). */
export function upstreamUserAgent(): string {
  return process.env.UPSTREAM_USER_AGENT || `mcp-preflight harvester (+${siteUrl()})`;
}

/** Per-request timeout of upstream sources; liveness probes use LIVENESS_TIMEOUT_MS. */
export const upstreamTimeoutMs = () => Number(process.env.UPSTREAM_TIMEOUT_MS || UPSTREAM_TIMEOUT_MS);
export const livenessTimeoutMs = () => Number(process.env.LIVENESS_TIMEOUT_MS || 8_000);

export const HOUR_MS = 3_600_000;

/** Freshness targets: an observation older than this is due again. */
export const FRESHNESS_MS = {
  repo: 24 * HOUR_MS,
  jspkg: 24 * HOUR_MS,
  pypkg: 24 * HOUR_MS,
  vuln: 24 * HOUR_MS,
  liveness: 6 * HOUR_MS,
} as const;

/** Upstream batch sizes: GitHub GraphQL aliases per query, OSV queries per querybatch. */
export const GITHUB_GRAPHQL_BATCH = 100;
export const OSV_BATCH = 1000;

/**
 * Per-run call budgets by source: a run stops calling a source when its budget
 * is spent, and the next run resumes with the stalest items. GitHub's is well
 * under the 5,000 points/hour a token gets; npm and PyPI publish no read limit.
 */
export const HARVEST_CALL_BUDGET = {
  repo: Number(process.env.HARVEST_BUDGET_REPO || 1_000),
  jspkg: Number(process.env.HARVEST_BUDGET_JSPKG || 30_000),
  pypkg: Number(process.env.HARVEST_BUDGET_PYPKG || 30_000),
  vuln: Number(process.env.HARVEST_BUDGET_VULN || 5_000),
  liveness: Number(process.env.HARVEST_BUDGET_LIVENESS || 10_000),
} as const;

/** Requests in flight per source (GitHub and OSV batches go one at a time). */
export const HARVEST_CONCURRENCY = {
  jspkg: Number(process.env.HARVEST_CONCURRENCY_JSPKG || 8),
  pypkg: Number(process.env.HARVEST_CONCURRENCY_PYPKG || 8),
  vuln: Number(process.env.HARVEST_CONCURRENCY_VULN || 8),
  liveness: Number(process.env.HARVEST_CONCURRENCY_LIVENESS || 16),
} as const;

/** Items claimed (leased) and written per transaction. */
export const HARVEST_CHUNK = 100;
/** A lease outlives a slow chunk; a crashed holder's items return after this. */
export const HARVEST_LEASE_MS = 10 * 60_000;

/** The embedded server's harvest timer; 0 turns it off. */
export function harvestIntervalMs(): number {
  const v = process.env.HARVEST_INTERVAL_MS;
  return v === undefined || v === "" ? HOUR_MS : Number(v);
}

// ---------------------------------------------------------------------------
// Watches, webhooks and the change feed (DESIGN §8, docs/webhooks.md)

/** Active watches one account may hold, by tier (contract Limits: free key 5, pro key 50). */
export const WATCH_LIMITS: Record<Exclude<Tier, "free">, number> = {
  registered: 5,
  pro: 50,
};

/** Webhook and e-mail deliveries: a receiver gets this long to answer one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const webhookTimeoutMs = () => Number(process.env.WEBHOOK_TIMEOUT_MS || WEBHOOK_TIMEOUT_MS);

/**
 * Retries: exponential backoff (30 s, 1 min, 2 min, … doubling, at most 6 h
 * apart) for 24 h after the event was queued; the last attempt falls at the
 * 24 h mark, and a delivery still failing then is given up (status `failed`).
 */
export const DELIVERY_RETRY_BASE_MS = 30_000;
export const DELIVERY_RETRY_MAX_DELAY_MS = 6 * HOUR_MS;
export const DELIVERY_RETRY_WINDOW_MS = 24 * HOUR_MS;

/** A claimed delivery is the worker's for this long; a crashed worker's claims return after it. */
export const DELIVERY_LEASE_MS = 60_000;
export const deliveryLeaseMs = () => Number(process.env.DELIVERY_LEASE_MS || DELIVERY_LEASE_MS);
/** The shortest lease a worker may hold: an e-mail send (three webhook timeouts) and 2 s. */
export const minDeliveryLeaseMs = (timeoutMs: number) => timeoutMs * 3 + 2_000;
/** Deliveries claimed per round, and at most this many of one watch's queue in a row. */
export const DELIVERY_CLAIM_BATCH = 400;
export const DELIVERY_CLAIM_PER_LANE = 50;
/** Watch queues (lanes) sent to at the same time; one lane is always sent in order, one at a time. */
export const DELIVERY_CONCURRENCY = Number(process.env.DELIVERY_CONCURRENCY || 32);
/** Bytes of a receiver's answer kept with the attempt, for the owner to read. */
export const DELIVERY_RESPONSE_EXCERPT_BYTES = 512;
/** Finished deliveries (delivered, given up, cancelled) and their attempts are kept this long. */
export const DELIVERY_RETENTION_DAYS = 30;

/** BOOT_INGEST=0: the server does not fill an empty catalog from the registry when it starts (nothing else). */
export function bootIngestEnabled(): boolean {
  return process.env.BOOT_INGEST !== "0";
}

/** How often a server process runs the daily upkeep itself (0: never; Vercel's cron calls it instead). */
export function maintenanceIntervalMs(): number {
  const v = process.env.MAINTENANCE_INTERVAL_MS;
  return v === undefined || v === "" ? HOUR_MS : Number(v);
}

/** The server's own delivery timer (watch notifications); 0 turns it off. */
export function deliverIntervalMs(): number {
  const v = process.env.DELIVER_INTERVAL_MS;
  return v === undefined || v === "" ? 5_000 : Number(v);
}

/**
 * Test-only: a PEM file of extra certificate authorities that outbound HTTPS
 * trusts on top of the system roots (the tests' self-signed webhook receiver).
 * Unset in production.
 */
export function outboundExtraCaFile(): string | undefined {
  return process.env.OUTBOUND_EXTRA_CA_FILE || undefined;
}

/** GET /v1/changes page size. */
export const CHANGE_FEED_DEFAULT_LIMIT = 100;
export const CHANGE_FEED_MAX_LIMIT = 500;
