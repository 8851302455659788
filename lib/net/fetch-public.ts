import dns from "node:dns";
import fs from "node:fs";
import { isIP, type LookupFunction } from "node:net";
import tls from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { outboundAllowHosts, outboundExtraCaFile } from "@/lib/config";
import { currentAllowList } from "./allow-list";
import { isPublicAddress } from "./address-policy";

/** An outbound request refused because its host is or resolves to a non-public address. */
export class OutboundBlockedError extends Error {
  readonly code = "OUTBOUND_BLOCKED";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refused to connect to ${host} (${address}): not a public address`);
  }
}

function permitted(host: string, address: string): boolean {
  const allow = currentAllowList();
  return isPublicAddress(address) || allow.allowsAddress(address) || allow.allowsHost(host);
}

/**
 * dns.lookup that fails unless every address the name resolves to is public.
 * net.connect then connects to the addresses this returned, so a second
 * resolution cannot rebind the connection to an internal address.
 */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 4);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !permitted(hostname, a.address));
    if (bad) return callback(new OutboundBlockedError(hostname, bad.address) as NodeJS.ErrnoException, "", 4);
    if (!list.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * The connector every outbound socket goes through. Literal IP hosts skip DNS,
 * so they are checked here; names are checked by publicLookup. Redirects open
 * their connections through the same connector, so every hop is checked.
 * `extraCa` (tests only, OUTBOUND_EXTRA_CA_FILE) is trusted on top of the
 * system roots, never instead of them.
 */
function publicConnector(extraCa?: string): buildConnector.connector {
  // made once: given as `ca`, the ~140 roots were parsed into a new context for every connection (0.15 s of CPU
  // on a loaded machine, which used up a test's 200 ms webhook timeout before the request was sent)
  const tlsOptions = extraCa ? { secureContext: tls.createSecureContext({ ca: [...tls.rootCertificates, extraCa] }) } : {};
  const baseConnector = buildConnector({ lookup: publicLookup, ...tlsOptions } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !permitted(host, host)) {
      callback(new OutboundBlockedError(host, host), null);
      return;
    }
    return baseConnector(opts, callback);
  };
}

const AGENTS_KEY = Symbol.for("mcp-preflight.public-agents");

/** One shared dispatcher per process (keep-alive pools are per origin), and one per test CA file. */
export function publicAgent(): Agent {
  const g = globalThis as unknown as Record<symbol, Map<string, Agent>>;
  const agents = (g[AGENTS_KEY] ??= new Map());
  const caFile = outboundExtraCaFile() ?? "";
  // Pooled sockets skip the connector: a changed allow-list setting (tests flip
  // it) gets its own agent rather than a socket the new setting would refuse.
  const key = `${caFile}\u0000${outboundAllowHosts()}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ connect: publicConnector(caFile ? fs.readFileSync(caFile, "utf8") : undefined), keepAliveTimeout: 10_000 });
    agents.set(key, agent);
  }
  return agent;
}

function blockedCause(err: unknown): OutboundBlockedError | null {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof OutboundBlockedError) return e;
  }
  return null;
}

/**
 * fetch() for every request that leaves the service (upstream sources,
 * liveness probes, webhooks): http(s) only, and only to public addresses,
 * checked after DNS resolution and on every redirect hop. A refusal rejects
 * with OutboundBlockedError; other failures reject as fetch does.
 */
export async function fetchPublic(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`refused to fetch ${url.protocol} URL: only http and https leave the service`);
  }
  try {
    const res = await undiciFetch(url, { ...(init as object), dispatcher: publicAgent() } as Parameters<typeof undiciFetch>[1]);
    return res as unknown as Response;
  } catch (err) {
    throw blockedCause(err) ?? err;
  }
}
