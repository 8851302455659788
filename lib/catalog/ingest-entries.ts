import { and, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db/client";
import { noteCatalogWrite } from "@/lib/cache/db-memo";
import { storableText } from "@/lib/db/storable-text";
import { registrySyncs, repositories, serverPackages, serverRemotes, servers, serverVersions, type ServerRow } from "@/lib/db/schema";
import { lockChanges, recordChanges } from "@/lib/harvest/record-changes";
import { lastRecordedRemoteUrls, registryChanges, remoteUrlSets, urlSet, type ListedState } from "@/lib/harvest/registry-changes";
import { loadServerEvidence } from "@/lib/harvest/load-server-evidence";
import { detectStateChanges } from "@/lib/harvest/state-changes";
import { normalizeRegistryEntry, type RegistryEntry } from "./normalize-registry-entry";
import { normalizeRepositoryUrl } from "./repository-url";
import { heldIsNewer, listingAge, mayDelist, versionIsNewer, type ListingAge } from "./listing-age";
import { failureText } from "@/lib/db/storable-text";
import { believableTime } from "@/lib/sources/upstream-time";

export interface IngestOptions {
  source: "api" | "file";
  origin: string;
  /** A complete listing delists the names it lacks; an incremental one never does. */
  complete: boolean;
  /** When the listing was observed (the crawl's start, or the dump's own time). */
  observedAt: Date;
  /**
   * When the listing was read, the instant its registry times may not be more than a day past (believableTime):
   * a dump's import, whatever time it is observed at. `observedAt` when not given (a crawl reads as it observes).
   */
  readAt?: Date;
  updatedSince?: Date | null;
  pages?: number;
}

export interface IngestCounts {
  entries: number;
  rejected: number;
  serversInserted: number;
  serversUpdated: number;
  serversDelisted: number;
  versionsInserted: number;
  versionsUpdated: number;
  versionsUnchanged: number;
  /** Change records written (server_new, registry_status, …). */
  changes: number;
}

export interface IngestResult {
  syncId: number;
  counts: IngestCounts;
  /** The change records this listing wrote, by kind (counts.changes in all). */
  changesByKind: Record<string, number>;
  rejects: string[];
}

const CHUNK = 500;
// Arbitrary constant: one catalog writer at a time, whatever process it runs in.
const INGEST_LOCK_KEY = 7_301_990_448;

function chunks<T>(xs: T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** A registry listing as read: its entries normalized, in listing order, and why each rejected one was. */
export interface NormalizedListing {
  entries: RegistryEntry[];
  rejects: string[];
  /** The entries the listing held, rejected ones included. */
  count: number;
}

/**
 * Normalizes every entry of a listing once (a dump's observation time is read from the result: ingest-dump.ts).
 * Registry times past the listing's reading (`readAt`) are held as unknown, not as times (believableTime).
 */
export function normalizeListing(rawEntries: unknown[], readAt: Date): NormalizedListing {
  const entries: RegistryEntry[] = [];
  const rejects: string[] = [];
  for (const raw of rawEntries) {
    try {
      const e = normalizeRegistryEntry(raw);
      e.updatedAt = believableTime(e.updatedAt, readAt);
      e.publishedAt = believableTime(e.publishedAt, readAt);
      e.statusChangedAt = believableTime(e.statusChangedAt, readAt);
      entries.push(e);
    } catch (err) {
      rejects.push((err as Error).message);
    }
  }
  return { entries, rejects, count: rawEntries.length };
}

/**
 * Writes a registry listing into the catalog. Idempotent: a version whose content
 * hash is unchanged is not touched, and a server row is updated only when one of
 * its columns would change, so ingesting the same dump twice changes no row.
 */
export async function ingestEntries(db: Db, rawEntries: unknown[], opts: IngestOptions): Promise<IngestResult> {
  return ingestListing(db, normalizeListing(rawEntries, opts.readAt ?? opts.observedAt), opts);
}

/** ingestEntries for a listing already normalized (by normalizeListing, with the same reading time). */
export async function ingestListing(db: Db, listing: NormalizedListing, opts: IngestOptions): Promise<IngestResult> {
  const { rejects } = listing;
  // one entry per name and version: the last the listing holds
  const byKey = new Map<string, RegistryEntry>();
  for (const e of listing.entries) byKey.set(`${e.name}\u0000${e.version}`, e);
  const entries = [...byKey.values()];
  // A listing not read whole proves no absence: a rejected row may be the one naming a server we hold, and an
  // empty "complete" listing is a broken export, not a registry without servers. It is written as incomplete:
  // it adds and updates what it does hold and delists nothing.
  const unreadable = !opts.complete ? null : rejects.length ? `${rejects.length} entries rejected` : entries.length ? null : "the listing is empty";
  if (unreadable) opts = { ...opts, complete: false };
  const counts: IngestCounts = {
    entries: listing.count,
    rejected: rejects.length,
    serversInserted: 0,
    serversUpdated: 0,
    serversDelisted: 0,
    versionsInserted: 0,
    versionsUpdated: 0,
    versionsUnchanged: 0,
    changes: 0,
  };

  const sync = {
    source: opts.source,
    origin: opts.origin,
    complete: opts.complete,
    startedAt: new Date(),
    observedAt: opts.observedAt,
    updatedSince: opts.updatedSince ?? null,
    entries: listing.count,
    pages: opts.pages ?? 0,
  };
  let syncId: number;
  let changesByKind: Record<string, number> = {};
  try {
    // The sync row is written with the catalog, in its transaction: a process killed part-way (a cron function
    // past its time limit, Ctrl-C) leaves neither, where a "running" row written first would say so for good.
    syncId = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${INGEST_LOCK_KEY})`);
      await lockChanges(tx); // before the evidence it compares is read (lockChanges)
      changesByKind = await writeCatalog(tx, entries, opts, counts);
      // marked succeeded under the catalog lock, so the next writer knows this listing has been written
      const [row] = await tx
        .insert(registrySyncs)
        .values({
          ...sync,
          status: "succeeded",
          finishedAt: new Date(),
          counts,
          error: unreadable
            ? `${unreadable}${rejects.length ? `; first: ${rejects[0]}` : ""}; not used to delist servers`
            : rejects.length
              ? `${rejects.length} entries rejected; first: ${rejects[0]}`
              : null,
        })
        .returning({ id: registrySyncs.id });
      return row.id;
    });
  } catch (err) {
    try {
      await db.insert(registrySyncs).values({ ...sync, status: "failed", finishedAt: new Date(), error: failureText(err), counts });
    } catch {
      // a database that refuses every write (its disk full) refuses this one too: the first error says why
    }
    throw err;
  }
  noteCatalogWrite(db);
  return { syncId, counts, changesByKind, rejects };
}

async function upsertRepositories(tx: Tx, urls: string[]): Promise<Map<string, number>> {
  const refs = new Map(urls.map((u) => [u, normalizeRepositoryUrl(u)]));
  const unique = new Map([...refs.values()].map((r) => [r.url, r]));
  const ids = new Map<string, number>();
  for (const part of chunks([...unique.values()])) {
    await tx
      .insert(repositories)
      .values(part.map((r) => ({ url: r.url, host: r.host, owner: r.owner, name: r.name, source: r.host === "github.com" ? "github" : null })))
      .onConflictDoNothing({ target: repositories.url });
    const rows = await tx
      .select({ id: repositories.id, url: repositories.url })
      .from(repositories)
      .where(inArray(repositories.url, part.map((r) => r.url)));
    for (const r of rows) ids.set(r.url, r.id);
  }
  // keyed by the raw URL as the listing spelled it
  return new Map([...refs].map(([raw, ref]) => [raw, ids.get(ref.url)!]));
}

/** How this listing stands against the listings already written (read under the catalog lock). */
async function ageOf(tx: Tx, observedAt: Date): Promise<ListingAge> {
  const [row] = await tx
    .select({
      written: max(registrySyncs.observedAt),
      // the first complete listing after this one: a name it lacked was gone by then, not only by the newest's time
      complete: sql<Date | string | null>`min(${registrySyncs.observedAt}) filter (where ${registrySyncs.complete} and ${registrySyncs.observedAt} > ${observedAt.toISOString()}::timestamptz)`,
    })
    .from(registrySyncs)
    .where(eq(registrySyncs.status, "succeeded"));
  const complete = row?.complete == null ? null : new Date(row.complete);
  return listingAge(observedAt, row?.written ?? null, complete);
}

function minDate(...ds: (Date | null | undefined)[]): Date | null {
  let m: Date | null = null;
  for (const d of ds) if (d && (!m || d < m)) m = d;
  return m;
}

async function writeCatalog(tx: Tx, entries: RegistryEntry[], opts: IngestOptions, counts: IngestCounts): Promise<Record<string, number>> {
  const byName = new Map<string, RegistryEntry[]>();
  for (const e of entries) {
    const list = byName.get(e.name);
    if (list) list.push(e);
    else byName.set(e.name, [e]);
  }
  const names = [...byName.keys()];
  const age = await ageOf(tx, opts.observedAt);

  const existing = new Map<string, typeof servers.$inferSelect>();
  for (const part of chunks(names, 5000)) {
    for (const row of await tx.select().from(servers).where(inArray(servers.name, part))) existing.set(row.name, row);
  }
  // The catalog as it was, for change detection: rows, latest remote sets, and
  // (complete listings) the servers this listing will delist.
  const prior = new Map(existing);
  const priorRemotes = await remoteUrlSets(tx, [...prior.values()].flatMap((r) => (r.latestVersionId ? [r.latestVersionId] : [])));
  // a server held without a latest version was described by a non-latest row: its remotes are those the feed reported
  const describedRemotes = await lastRecordedRemoteUrls(tx, [...prior.values()].flatMap((r) => (r.latestVersionId ? [] : [r.id])));
  const toDelist: ServerRow[] = opts.complete
    ? (await tx.select().from(servers).where(isNull(servers.delistedAt))).filter((r) => !byName.has(r.name) && mayDelist(r, age))
    : [];

  // The entry that describes the server: the one the registry marks latest. A new
  // server seen only through non-latest rows (possible in incremental runs) is
  // described by its most recently published version until a latest arrives.
  const current = new Map<string, RegistryEntry | null>();
  for (const [name, list] of byName) {
    const latest = lastUpdated(list.filter((e) => e.isLatest));
    if (latest || existing.has(name)) current.set(name, latest);
    else current.set(name, [...list].sort((a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0))[0]);
  }

  // Servers this listing is older than (it began before a crawl that has committed since, or is an older
  // dump): it adds the versions we lack as history but changes nothing else about them.
  const outdated = new Set(names.filter((n) => existing.has(n) && heldIsNewer(existing.get(n)!, current.get(n) ?? null, age)));
  for (const n of outdated) current.set(n, null);

  const repoUrls = [...current.values()].flatMap((e) => (e?.repository ? [e.repository.url] : []));
  const repoIds = await upsertRepositories(tx, repoUrls);

  // New servers first, so versions can reference them.
  const fresh = names.filter((n) => !existing.has(n));
  for (const part of chunks(fresh)) {
    const rows = await tx
      .insert(servers)
      .values(
        part.map((name) => {
          const list = byName.get(name)!;
          const cur = current.get(name)!;
          return {
            ...describe(cur, repoIds),
            name,
            namespace: list[0].namespace,
            serverPart: list[0].serverPart,
            firstSeenAt: minDate(...list.map((e) => e.publishedAt), opts.observedAt)!,
            // a complete listing observed after this one, and written before it, did not have this name
            delistedAt: age.goneBy,
          };
        }),
      )
      .returning();
    for (const r of rows) existing.set(r.name, r);
    counts.serversInserted += rows.length;
  }

  // Versions: diff by content hash.
  const serverIds = names.map((n) => existing.get(n)!.id);
  const known = new Map<string, { id: number; contentHash: string; registryUpdatedAt: Date | null }>();
  for (const part of chunks(serverIds, 5000)) {
    const rows = await tx
      .select({
        id: serverVersions.id,
        serverId: serverVersions.serverId,
        version: serverVersions.version,
        contentHash: serverVersions.contentHash,
        registryUpdatedAt: serverVersions.registryUpdatedAt,
      })
      .from(serverVersions)
      .where(inArray(serverVersions.serverId, part));
    for (const r of rows) known.set(`${r.serverId}\u0000${r.version}`, r);
  }

  const toInsert: { entry: RegistryEntry; serverId: number }[] = [];
  const toUpdate: { entry: RegistryEntry; id: number }[] = [];
  for (const e of entries) {
    const serverId = existing.get(e.name)!.id;
    const k = known.get(`${serverId}\u0000${e.version}`);
    if (!k) toInsert.push({ entry: e, serverId });
    else if (k.contentHash !== e.contentHash && versionIsNewer(k.registryUpdatedAt, e, age)) toUpdate.push({ entry: e, id: k.id });
    else counts.versionsUnchanged++;
  }

  // Servers whose health/verified may move with this listing: new or changed
  // versions, relisting, delisting. Their evidence is read before any write.
  const touched = new Set<number>();
  for (const { entry } of [...toInsert, ...toUpdate]) {
    const row = prior.get(entry.name);
    if (row) touched.add(row.id);
  }
  for (const row of prior.values()) if (row.delistedAt) touched.add(row.id);
  for (const row of toDelist) touched.add(row.id);
  const evidenceBefore = await loadServerEvidence(tx, [...touched]);

  const versionIds = new Map<RegistryEntry, number>();
  for (const part of chunks(toInsert)) {
    const rows = await tx
      .insert(serverVersions)
      .values(part.map(({ entry, serverId }) => ({ serverId, ...versionColumns(entry, outdated) })))
      .returning({ id: serverVersions.id });
    rows.forEach((r, i) => versionIds.set(part[i].entry, r.id));
    counts.versionsInserted += rows.length;
  }
  for (const { entry, id } of toUpdate) {
    await tx.update(serverVersions).set(versionColumns(entry, outdated)).where(eq(serverVersions.id, id));
    versionIds.set(entry, id);
    counts.versionsUpdated++;
  }
  for (const part of chunks(toUpdate.map((u) => u.id))) {
    await tx.delete(serverPackages).where(inArray(serverPackages.versionId, part));
    await tx.delete(serverRemotes).where(inArray(serverRemotes.versionId, part));
  }
  const pkgRows = [...versionIds].flatMap(([e, versionId]) => e.packages.map((p, position) => ({ versionId, position, ...p })));
  const remoteRows = [...versionIds].flatMap(([e, versionId]) => e.remotes.map((r, position) => ({ versionId, position, ...r })));
  for (const part of chunks(pkgRows)) await tx.insert(serverPackages).values(part);
  for (const part of chunks(remoteRows)) await tx.insert(serverRemotes).values(part);

  // The registry flags one latest version per server; older flags we hold are cleared.
  const latestPairs = names.flatMap((n) => {
    const cur = current.get(n);
    return cur?.isLatest ? [{ serverId: existing.get(n)!.id, version: cur.version }] : [];
  });
  for (const part of chunks(latestPairs, 5000)) {
    await tx.execute(sql`
      update server_versions v set is_latest = false
      from jsonb_to_recordset(${JSON.stringify(part.map((p) => ({ server_id: p.serverId, version: p.version })))}::jsonb) as l(server_id bigint, version text)
      where v.server_id = l.server_id and v.is_latest and v.version <> l.version`);
  }
  for (const part of chunks(serverIds, 5000)) {
    await tx.execute(sql`
      update servers s set latest_version_id = v.id
      from server_versions v
      where v.server_id = s.id and v.is_latest and s.id in (select jsonb_array_elements_text(${JSON.stringify(part)}::jsonb)::bigint)
        and s.latest_version_id is distinct from v.id`);
  }

  // A delisted name returns when the listing shows it again: a row the registry marks deleted (incremental
  // crawls include them) is hidden from its listings, so it is no return.
  const returns = (name: string) => byName.get(name)!.some((e) => e.status !== "deleted");

  // Descriptive columns: written only when one of them would change.
  const freshSet = new Set(fresh);
  for (const name of names) {
    if (freshSet.has(name)) continue;
    const row = existing.get(name)!;
    const cur = current.get(name);
    const patch: Partial<typeof servers.$inferInsert> = {};
    if (cur) {
      const desc = describe(cur, repoIds);
      for (const [k, v] of Object.entries(desc) as [keyof typeof desc, unknown][]) {
        const old = row[k as keyof typeof row];
        const same = v instanceof Date || old instanceof Date ? sameTime(v as Date | null, old as Date | null) : old === v;
        if (!same) (patch as Record<string, unknown>)[k] = v;
      }
    }
    const firstSeen = minDate(row.firstSeenAt, ...byName.get(name)!.map((e) => e.publishedAt));
    if (!sameTime(firstSeen, row.firstSeenAt)) patch.firstSeenAt = firstSeen!;
    if (row.delistedAt && !outdated.has(name) && returns(name)) patch.delistedAt = null;
    if (Object.keys(patch).length) {
      await tx.update(servers).set({ ...patch, updatedAt: new Date() }).where(eq(servers.id, row.id));
      counts.serversUpdated++;
    }
  }

  // toDelist was read under the catalog lock, so it is still exactly the listed servers this listing lacks
  for (const part of chunks(toDelist.map((r) => r.id), 5000)) {
    const delisted = await tx
      .update(servers)
      .set({ delistedAt: opts.observedAt, updatedAt: new Date() })
      .where(and(isNull(servers.delistedAt), inArray(servers.id, part)))
      .returning({ id: servers.id });
    counts.serversDelisted += delisted.length;
  }

  const listed = (name: string): ListedState | null => {
    const cur = current.get(name);
    return cur && cur.isLatest
      ? { status: cur.status, specEra: cur.specEra, version: cur.version, remoteUrls: urlSet(cur.remotes.map((r) => r.url)) }
      : null;
  };
  const found = registryChanges({
    observedAt: opts.observedAt,
    fresh: fresh.map((name) => {
      const cur = current.get(name) ?? null;
      // a new server seen only through non-latest rows is described by its newest one
      const state = cur ? { status: cur.status, specEra: cur.specEra, version: cur.version, remoteUrls: urlSet(cur.remotes.map((r) => r.url)) } : null;
      return { id: existing.get(name)!.id, name, state, goneBy: age.goneBy };
    }),
    seen: [...prior.values()].filter((row) => !outdated.has(row.name)).map((row) => ({
      prior: row,
      priorRemoteUrls: row.latestVersionId ? (priorRemotes.get(row.latestVersionId) ?? []) : (describedRemotes.get(row.id) ?? null),
      state: listed(row.name),
      listed: row.delistedAt === null || returns(row.name),
    })),
    delisted: toDelist,
  });
  found.push(...(await detectStateChanges(tx, evidenceBefore, await loadServerEvidence(tx, [...touched]), opts.observedAt)));
  const recorded = await recordChanges(tx, found);
  counts.changes = recorded.length;
  const byKind: Record<string, number> = {};
  for (const r of recorded) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  return byKind;
}

/**
 * Of the rows a listing calls latest, the one the registry updated last (the last read when as new). A listing
 * holds two for one server when a version is published while a crawl reads its pages (rows come by name and
 * version, and the old latest's flag flips without a new updatedAt): the first page still calls the old version
 * latest, the next one the new version. The first of them made the old version the server's latest.
 */
function lastUpdated(latest: RegistryEntry[]): RegistryEntry | null {
  const time = (e: RegistryEntry) => e.updatedAt?.getTime() ?? e.publishedAt?.getTime() ?? -Infinity;
  return latest.reduce<RegistryEntry | null>((best, e) => (!best || time(e) >= time(best) ? e : best), null);
}

function describe(e: RegistryEntry | null, repoIds: Map<string, number>) {
  if (!e) return {};
  return {
    title: e.title,
    description: e.description,
    websiteUrl: e.websiteUrl,
    latestVersion: e.isLatest ? e.version : null,
    registryStatus: e.status,
    statusMessage: e.statusMessage,
    statusChangedAt: e.statusChangedAt,
    specEra: e.specEra,
    repositoryId: e.repository ? (repoIds.get(e.repository.url) ?? null) : null,
    publishedAt: e.publishedAt,
    registryUpdatedAt: e.updatedAt,
  };
}

function versionColumns(e: RegistryEntry, outdated: Set<string>) {
  return {
    version: e.version,
    // an outdated listing's "latest" is not ours to flag: the server's latest is a newer version
    isLatest: e.isLatest && !outdated.has(e.name),
    status: e.status,
    statusMessage: e.statusMessage,
    statusChangedAt: e.statusChangedAt,
    publishedAt: e.publishedAt,
    registryUpdatedAt: e.updatedAt,
    schemaUrl: e.schemaUrl,
    repositoryUrl: e.repository?.url ?? null,
    document: e.document,
    contentHash: e.contentHash,
  };
}
