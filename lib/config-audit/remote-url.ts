import { isIP } from "node:net";
import { MAX_KEY_BYTES } from "@/lib/catalog/normalize-registry-entry";
import type { UnresolvedCode } from "./types";

/**
 * Query parameters whose values are secrets: redacted in every identifier the service echoes. Vendors name
 * them freely (`exaApiKey`, `tavilyApiKey`, `x-api-key`, `accessToken`), so a name containing one of these
 * words counts, not only the exact word.
 */
const SECRET_PARAM = /^(code|sig|pass)$|token|key|secret|passw|pwd|auth|signature|session|credential/i;

/**
 * Variables a client expands at launch: `${VAR}`, `${env:VAR}`, `${input:id}`, `${{ secrets.X }}`, `$VAR`, `%VAR%`.
 * A `${` is read up to its `}` or the next `${`, which finds a variable in the same texts (from the last `${`
 * before the `}`): read up to a `}` alone, each `${` of a URL of many and no `}` was read to the end (quadratic).
 */
export const VARIABLE = /\$\{(?:[^$}]|\$(?!\{))*\}|\$\{\{(?:[^$}]|\$(?!\{))*\}\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%/;

/**
 * Template text left for the user to fill in (`<account>`, and `<your project>` with a space inside). The
 * leading spaces are skipped apart (`<\s*[^<>\s]`, not `<[^<>]*[^<>\s]`): any split of the text after an unclosed
 * `<` was tried, quadratic in its length. `[REDACTED…` is read up to the next `[` for the same reason.
 */
const PLACEHOLDER = /<\s*[^<>\s][^<>]*>|\{[a-z_-]+\}|\byour[-_]|\bYOUR_|\bxxx+\b|\[REDACTED[^\][]*\]/i;

/** Hosts reserved for documentation and examples (RFC 2606 / 6761). */
const EXAMPLE_HOST = /(^|\.)(example\.(com|net|org)|example|test|invalid)$/i;

export type RemoteUrlCheck =
  | { ok: true; url: URL; normalized: string }
  | { ok: false; code: UnresolvedCode; summary: string };

/**
 * Checks an entry's URL before any catalog look-up: variables, placeholders, local sockets, loopback and
 * private addresses can never name a catalog server. A documentation host (example.com) is looked up like
 * any other and only explained as a placeholder when the catalog has no such remote.
 */
export function checkRemoteUrl(raw: string): RemoteUrlCheck {
  const text = raw.trim();
  // a variable in the query, fragment or credentials (`?api_key=${KEY}`) leaves the endpoint known; only one
  // in the scheme, host or path makes it unknowable
  const endpoint = text.replace(/[?#][\s\S]*$/, "").replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, "$1");
  if (VARIABLE.test(endpoint)) {
    return { ok: false, code: "placeholder", summary: `the URL ${redactUrlText(text)} contains a variable that is filled in at launch, so the endpoint is not known from the file` };
  }
  if (/^(unix|pipe):/i.test(text)) {
    return { ok: false, code: "local_socket", summary: `the URL ${text} is a local socket or pipe, not a catalog endpoint` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    if (PLACEHOLDER.test(text)) return { ok: false, code: "placeholder", summary: `the URL ${redactUrlText(text)} is a placeholder` };
    return { ok: false, code: "invalid_url", summary: `the URL ${redactUrlText(text)} cannot be parsed` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, code: "invalid_url", summary: `the URL scheme ${url.protocol} is not http or https` };
  }
  if (PLACEHOLDER.test(decodeURIComponentSafe(url.hostname + url.pathname))) {
    return { ok: false, code: "placeholder", summary: `the URL ${redactUrl(url)} is a placeholder` };
  }
  if (isLocalHost(url.hostname)) {
    return { ok: false, code: "loopback_url", summary: `the URL ${redactUrl(url)} is on a loopback, private or local-network address, so it is a local server` };
  }
  return { ok: true, url, normalized: normalizeRemoteUrl(url) };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Loopback, private (RFC 1918, ULA, link-local), unspecified, `localhost` and `*.local` / `*.internal` hosts. */
export function isLocalHost(hostname: string): boolean {
  // a fully qualified name's trailing dot (`localhost.`, `box.local.`) names the same host
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal") || h.endsWith(".lan") || h.endsWith(".home.arpa")) return true;
  if (!h.includes(".") && !isIP(h)) return true; // a single-label name resolves only on the local network
  const v = isIP(h);
  if (v === 4) {
    const [a, b] = h.split(".").map(Number);
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (v === 6) {
    if (h === "::1" || h === "::") return true;
    const mapped = h.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped) return isLocalHost(mapped[1]);
    // the URL parser writes an IPv4-mapped address in hex (`[::ffff:127.0.0.1]` → `[::ffff:7f00:1]`)
    const hex = h.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
    if (hex) {
      const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return isLocalHost(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
  }
  return false;
}

export function isExampleHost(hostname: string): boolean {
  return EXAMPLE_HOST.test(hostname.toLowerCase());
}

/**
 * The form URLs are compared in: lower-case scheme and host, no default port, no fragment, no credentials,
 * no trailing slash (except the root), query kept as written.
 */
export function normalizeRemoteUrl(input: URL | string): string {
  const url = typeof input === "string" ? new URL(input) : new URL(input.href);
  url.hash = "";
  url.username = "";
  url.password = "";
  let path = url.pathname;
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path === "/" ? "" : path}${url.search}`;
}

/**
 * The stored forms a catalog remote could have for this URL, most specific first: as normalised, with a
 * trailing slash, without the query; then the path cut back one segment at a time (tenant and project
 * segments: `…/mcp/<org>/<project>` → `…/mcp`), never to the bare host. Each is `[form, exact]`.
 */
export function remoteUrlCandidates(input: URL): { url: string; exact: boolean }[] {
  const base = `${input.protocol}//${input.host}`;
  const segments = input.pathname.split("/").filter(Boolean);
  const out: { url: string; exact: boolean }[] = [];
  // No form longer than a catalog remote URL can be (MAX_KEY_BYTES; the catalog holds none longer, and forms are
  // ASCII) is made: a path of 100,000 segments made 200,000 forms of up to 256 KiB each (minutes, gigabytes).
  const add = (url: string, exact: boolean) => {
    if (url.length <= MAX_KEY_BYTES && !out.some((c) => c.url === url)) out.push({ url, exact });
  };
  const path = segments.length ? `/${segments.join("/")}` : "";
  if (input.search) {
    add(`${base}${path}${input.search}`, true);
    add(`${base}${path}/${input.search}`, true);
  }
  add(`${base}${path}`, true);
  add(`${base}${path}/`, true);
  if (!path) add(base, true);
  // the longest cut-back whose form can be that short
  let fits = 0;
  for (let length = base.length; fits < segments.length - 1 && length + 1 + segments[fits].length <= MAX_KEY_BYTES; fits++) length += 1 + segments[fits].length;
  for (let n = fits; n >= 1; n--) {
    const p = `/${segments.slice(0, n).join("/")}`;
    add(`${base}${p}`, false);
    add(`${base}${p}/`, false);
  }
  return out;
}

/** The URL with credentials and secret-looking query values replaced by `REDACTED`. */
export function redactUrl(url: URL): string {
  const u = new URL(url.href);
  if (u.username) u.username = "REDACTED";
  if (u.password) u.password = "REDACTED";
  for (const k of [...u.searchParams.keys()]) if (SECRET_PARAM.test(k)) u.searchParams.set(k, "REDACTED");
  return u.href;
}

/**
 * Best-effort redaction of a string that may not parse as a URL. A URL holding a launch variable is redacted as
 * text: parsing would lower-case `${TENANT}` in the host and percent-encode `${env:ID}` in the path, so the reader
 * could not tell which variable the entry needs.
 */
export function redactUrlText(text: string): string {
  try {
    if (VARIABLE.test(text)) throw new Error("shown as written");
    return redactUrl(new URL(text));
  } catch {
    return text
      .replace(/([?&]([^=&#\s]*)=)([^&#\s]*)/g, (all, prefix: string, name: string) => (SECRET_PARAM.test(name) ? `${prefix}REDACTED` : all))
      .replace(/\/\/[^/@\s]+@/, "//REDACTED@");
  }
}
