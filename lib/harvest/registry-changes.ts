import { and, desc, inArray } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { changes, serverRemotes, type ServerRow } from "@/lib/db/schema";
import type { ChangeInput } from "./record-changes";

/** The remote URL set of a version, as compared by endpoint_moved: unique and sorted. */
export const urlSet = (urls: string[]) => [...new Set(urls)].sort();

/** Remote URL sets of the given versions (a version with no remotes maps to []). */
export async function remoteUrlSets(q: Queryable, versionIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(versionIds.map((v) => [v, []]));
  for (let i = 0; i < versionIds.length; i += 5000) {
    const part = versionIds.slice(i, i + 5000);
    if (!part.length) continue;
    const rows = await q.select({ versionId: serverRemotes.versionId, url: serverRemotes.url }).from(serverRemotes).where(inArray(serverRemotes.versionId, part));
    for (const r of rows) out.get(r.versionId)!.push(r.url);
  }
  for (const [k, v] of out) out.set(k, urlSet(v));
  return out;
}

/**
 * The remote URL set the feed last reported for servers held without a latest version (described by a
 * non-latest row): the `remotes` of their last server_new or endpoint_moved record. A server with none is absent.
 */
export async function lastRecordedRemoteUrls(q: Queryable, serverIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (let i = 0; i < serverIds.length; i += 1000) {
    const rows = await q
      .selectDistinctOn([changes.serverId], { serverId: changes.serverId, after: changes.after })
      .from(changes)
      .where(and(inArray(changes.kind, ["server_new", "endpoint_moved"]), inArray(changes.serverId, serverIds.slice(i, i + 1000))))
      .orderBy(changes.serverId, desc(changes.id));
    for (const r of rows) {
      const remotes = (r.after as { remotes?: unknown } | null)?.remotes;
      if (Array.isArray(remotes)) out.set(r.serverId, urlSet(remotes as string[]));
    }
  }
  return out;
}

/** What the listing now says about a server (its latest entry), or null when the listing has no latest row for it. */
export interface ListedState {
  status: string | null;
  specEra: string | null;
  version: string | null;
  remoteUrls: string[];
}

export interface RegistryDiffInput {
  observedAt: Date;
  /** Servers created by this listing; `goneBy` when a newer complete listing, already written, lacked them. */
  fresh: { id: number; name: string; state: ListedState | null; goneBy?: Date | null }[];
  /**
   * Servers held before this listing and present in it; `priorRemoteUrls` null when the set they were last
   * described with is unknown (endpoint_moved is then not compared).
   */
  seen: { prior: ServerRow; priorRemoteUrls: string[] | null; state: ListedState | null; listed: boolean }[];
  /** Servers a complete listing lacked (delisted now). */
  delisted: ServerRow[];
}

/**
 * server_new, registry_status, spec_era_change and endpoint_moved records of
 * one registry listing:
 * - server_new: a name the catalog never held;
 * - registry_status: the latest entry's status differs from the one held, or the
 *   server was delisted (a complete listing lacked it) or relisted (listed again by a row not marked deleted);
 * - spec_era_change: the $schema date of the latest entry differs;
 * - endpoint_moved: the remote URL set of the latest entry differs.
 * Only a listing's latest entry describes a server; a server listed without one
 * changes nothing but its delisting.
 */
export function registryChanges(input: RegistryDiffInput): ChangeInput[] {
  const out: ChangeInput[] = [];
  const at = input.observedAt;
  for (const f of input.fresh) {
    out.push({
      kind: "server_new",
      serverId: f.id,
      serverName: f.name,
      observedAt: at,
      before: null,
      after: { version: f.state?.version ?? null, registry_status: f.state?.status ?? null, spec_era: f.state?.specEra ?? null, remotes: f.state?.remoteUrls ?? [] },
    });
    if (f.goneBy) out.push(unlisted(f.id, f.name, f.state?.status ?? null, f.goneBy));
  }
  for (const { prior, priorRemoteUrls, state, listed } of input.seen) {
    const base = { serverId: prior.id, serverName: prior.name, observedAt: at };
    const wasListed = prior.delistedAt === null;
    const status = state ? state.status : prior.registryStatus;
    if (wasListed !== listed || status !== prior.registryStatus) {
      out.push({
        ...base,
        kind: "registry_status",
        before: { status: prior.registryStatus, listed: wasListed },
        after: { status, listed },
      });
    }
    if (!state) continue;
    if (state.specEra !== prior.specEra) {
      out.push({ ...base, kind: "spec_era_change", before: { spec_era: prior.specEra }, after: { spec_era: state.specEra } });
    }
    if (priorRemoteUrls && priorRemoteUrls.join("\n") !== state.remoteUrls.join("\n")) {
      out.push({ ...base, kind: "endpoint_moved", before: { remotes: priorRemoteUrls }, after: { remotes: state.remoteUrls } });
    }
  }
  for (const d of input.delisted) out.push(unlisted(d.id, d.name, d.registryStatus, at));
  return out;
}

/** registry_status: a listed server that a complete listing lacked, as of when that listing was observed. */
function unlisted(serverId: number, serverName: string, status: string | null, observedAt: Date): ChangeInput {
  return { kind: "registry_status", serverId, serverName, observedAt, before: { status, listed: true }, after: { status, listed: false } };
}
