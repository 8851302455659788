import { and, eq, inArray, sql } from "drizzle-orm";
import { FRESHNESS_MS, HARVEST_CONCURRENCY, OSV_BATCH } from "@/lib/config";
import type { Tx } from "@/lib/db/client";
import { osvAdvisories, serverPackages, vulnObservations } from "@/lib/db/schema";
import { describedVersionRows } from "@/lib/facts/described-version";
import { pinnedVersionSql } from "@/lib/facts/listed-version-exists";
import { osvGetVuln, osvQueryBatch, type OsvRecord } from "@/lib/sources/osv";
import { RateLimitedError, StoppedError } from "@/lib/sources/http";
import { jsonParam, query, ts } from "./db-helpers";
import { httpFor, noteError, SKIPPED, stopping, type HarvestContext, type Skipped, type SourceSpec } from "./harvest-context";
import { loadServerEvidence } from "./load-server-evidence";
import { pool } from "./run-source";
import { detectStateChanges } from "./state-changes";
import { distinctAdvisories } from "./distinct-advisories";
import { believableTime, parseUpstreamTime } from "@/lib/sources/upstream-time";

interface VulnItem {
  ecosystem: string;
  identifier: string;
  /** As listed ("" when the listing pins none). */
  listedVersion: string;
  /** What is looked up: the listed version, or the registry's latest when unpinned. */
  version: string;
  attemptedAt: number | null;
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

export interface StoredAdvisory {
  id: string;
  summary: string | null;
  severity: string | null;
  modified: string | null;
}

type VulnResult = { kind: "ok"; advisories: StoredAdvisory[]; records: OsvRecord[] } | { kind: "error"; error: string };

/**
 * (package, listed version) pairs of listed servers' described versions (lib/facts/described-version.ts) whose
 * look-up is due: never made, older than the freshness target, or made for another version than the one an
 * unpinned listing now resolves to. Missing packages are not looked up.
 */
function dueSql(ctx: HarvestContext) {
  const now = ctx.clock();
  const described = describedVersionRows(ctx.db, { listedOnly: true });
  // the version looked up: the pinned one, else (none listed, or a tag such as "latest") the registry's latest; an
  // empty latest (stored before the sources refused one) names none, and OSV would answer it with every advisory
  const version = sql`coalesce(${pinnedVersionSql(sql`p.listed_version`)}, case when btrim(po.latest_version) <> '' then po.latest_version end)`;
  return sql`
    select p.ecosystem, p.identifier, p.listed_version, ${version} as version, v.attempted_at
    from (select distinct sp.ecosystem, sp.identifier, coalesce(sp.version, '') as listed_version from server_packages sp
          join ${described.rows} on ${described.versionId} = sp.version_id
          where sp.ecosystem in ('jspkg', 'pypkg')) p
    left join package_observations po on po.ecosystem = p.ecosystem and po.identifier = p.identifier
    left join vuln_observations v on v.ecosystem = p.ecosystem and v.identifier = p.identifier and v.listed_version = p.listed_version
    left join leases l on l.key = 'harvest:vuln:' || p.ecosystem || ':' || p.identifier || '@' || p.listed_version and l.expires_at > ${ts(now)}
    where l.key is null
      and ${version} is not null
      and po.exists is distinct from false
      and (v.observed_at is null or v.observed_at < ${ts(new Date(now.getTime() - FRESHNESS_MS.vuln))}
           or v.queried_version is distinct from ${version})
      and (v.attempted_at is null or v.attempted_at < ${ts(ctx.runStart)})`;
}

export const vulnSource: SourceSpec<VulnItem, VulnResult> = {
  source: "vuln",
  chunkSize: OSV_BATCH,
  async countDue(ctx) {
    const [row] = await query<{ n: number }>(ctx.db, sql`select count(*)::int as n from (${dueSql(ctx)}) d`);
    return Number(row?.n ?? 0);
  },
  async selectDue(ctx, limit) {
    const rows = await query<{ ecosystem: string; identifier: string; listed_version: string; version: string; attempted_at: unknown }>(
      ctx.db,
      sql`select * from (${dueSql(ctx)}) d order by d.attempted_at asc nulls first, d.ecosystem, d.identifier, d.listed_version limit ${limit}`,
    );
    return rows.map((r) => ({ ecosystem: r.ecosystem, identifier: r.identifier, listedVersion: r.listed_version, version: r.version, attemptedAt: ms(r.attempted_at) }));
  },
  key: (i) => `${i.ecosystem}:${i.identifier}@${i.listedVersion}`,
  async attemptsNow(ctx, items) {
    const rows = await query<{ k: string; at: unknown }>(
      ctx.db,
      sql`select v.ecosystem || ':' || v.identifier || '@' || v.listed_version as k, v.attempted_at as at
          from vuln_observations v
          join jsonb_to_recordset(${jsonParam(items.map((i) => ({ e: i.ecosystem, n: i.identifier, v: i.listedVersion })))}) as w(e text, n text, v text)
            on w.e = v.ecosystem and w.n = v.identifier and w.v = v.listed_version`,
    );
    return new Map(rows.map((r) => [r.k, ms(r.at)]));
  },
  failure: (error) => ({ kind: "error", error }),
  failed: (r) => r.kind === "error",

  /**
   * One querybatch per 1,000 look-ups (ids and modified times only), then a
   * detail GET only for ids we have never read or whose `modified` moved.
   */
  async fetch(ctx, items) {
    const http = httpFor(ctx, "vuln");
    const answers = await osvQueryBatch(
      items.map((i) => ({ ecosystem: i.ecosystem, name: i.identifier, version: i.version })),
      http,
    );
    // a look-up whose page-token follow-up failed has no whole answer; the others of its batch do
    for (const a of answers) if ("error" in a && a.error instanceof RateLimitedError) ctx.rateLimits.vuln ??= a.error;
    const hits = answers.map((a) => ("hits" in a ? a.hits : []));
    const ids = [...new Set(hits.flat().map((h) => h.id))];
    const cached = new Map<string, typeof osvAdvisories.$inferSelect>();
    for (let i = 0; i < ids.length; i += 1000) {
      for (const row of await ctx.db.select().from(osvAdvisories).where(inArray(osvAdvisories.id, ids.slice(i, i + 1000)))) cached.set(row.id, row);
    }
    const newestModified = new Map<string, string | null>();
    // OSV's times, like every upstream's, are unknown when more than the skew past our reading (believableTime):
    // a cached `modified` a year ahead would make every real update look older, and never be read again
    const readAt = ctx.clock();
    const believed = (m: string | null) => (believableTime(parseUpstreamTime(m), readAt) ? m : null);
    // compared as instants: as text, "…:00.5Z" sorts before "…:00Z", and a time that names none is no news
    const instant = (m: string | null | undefined) => parseUpstreamTime(m)?.getTime() ?? -Infinity;
    for (const h of hits.flat()) {
      const m = believed(h.modified);
      if (!newestModified.has(h.id) || instant(m) > instant(newestModified.get(h.id))) newestModified.set(h.id, m);
    }
    const stale = ids.filter((id) => {
      const c = cached.get(id);
      const m = instant(newestModified.get(id));
      return !c || (m > -Infinity && (!c.modified || m > c.modified.getTime()));
    });
    const records = new Map<string, OsvRecord>();
    await pool(stale, HARVEST_CONCURRENCY.vuln, async (id) => {
      // past the run's deadline or stop no detail is read: the look-ups stand on the querybatch's ids, as when rate limited
      if (ctx.rateLimits.vuln || stopping(ctx)) return;
      try {
        const rec = await osvGetVuln(id, http);
        // a withdrawal dated past our reading has not happened yet: the advisory still counts
        if (rec) records.set(id, { ...rec, modified: believableTime(rec.modified, readAt), withdrawn: believableTime(rec.withdrawn, readAt) });
      } catch (err) {
        // not read for the run's stop or deadline: no upstream error
        if (err instanceof StoppedError) return;
        if (err instanceof RateLimitedError) ctx.rateLimits.vuln ??= err;
        // the batch already told us the id affects the version; its details wait for a later run
        noteError(ctx, "vuln", id, (err as Error).message);
      }
    });
    const describe = (id: string): StoredAdvisory => {
      // a record fetched now is the whole truth (a summary or severity taken away stays away); the cache
      // speaks only for ids not fetched this run
      const r = records.get(id);
      const c = cached.get(id);
      return {
        id,
        summary: r ? r.summary : (c?.summary ?? null),
        severity: r ? r.severity : (c?.severity ?? null),
        modified: newestModified.get(id) ?? r?.modified?.toISOString() ?? c?.modified?.toISOString() ?? null,
      };
    };
    // a fresh record without `withdrawn` has been reinstated: the cached date no longer holds
    const withdrawn = (id: string) => Boolean(records.has(id) ? records.get(id)!.withdrawn : cached.get(id)?.withdrawn);
    // the other ids of a flaw, as its record says (fetched now, else cached); an id never read names none
    const aliasesOf = (id: string): string[] => {
      const list = records.has(id) ? records.get(id)!.aliases : cached.get(id)?.aliases;
      return Array.isArray(list) ? list.filter((a): a is string => typeof a === "string") : [];
    };
    // the first answered look-up carries the whole set of fresh records; write() stores them once
    const carrier = answers.findIndex((a) => "hits" in a);
    return answers.map((a, i): VulnResult | Skipped =>
      "error" in a
        ? // a follow-up the run's stop or deadline kept back: the item goes back untouched
          a.error instanceof StoppedError
          ? SKIPPED
          : { kind: "error", error: a.error.message }
        : {
            kind: "ok",
            // withdrawn records first: a flaw one database withdrew (say, as a duplicate) still counts by its other ids
            advisories: distinctAdvisories(a.hits.map((h) => h.id).filter((id) => !withdrawn(id)), aliasesOf).map(describe),
            records: i === carrier ? [...records.values()] : [],
          },
    );
  },

  async write(ctx, tx: Tx, items, results, at) {
    const records = results.flatMap((r) => (r.kind === "ok" ? r.records : []));
    if (records.length) {
      await tx
        .insert(osvAdvisories)
        .values(records.map((r) => ({ id: r.id, modified: r.modified, summary: r.summary, severity: r.severity, aliases: r.aliases, withdrawn: r.withdrawn, fetchedAt: at })))
        .onConflictDoUpdate({
          target: osvAdvisories.id,
          set: {
            modified: sql`excluded.modified`,
            summary: sql`excluded.summary`,
            severity: sql`excluded.severity`,
            aliases: sql`excluded.aliases`,
            withdrawn: sql`excluded.withdrawn`,
            fetchedAt: sql`excluded.fetched_at`,
          },
        });
    }
    const identifiers = [...new Set(items.map((i) => i.identifier))];
    const described = describedVersionRows(tx, { listedOnly: false });
    const affected = identifiers.length
      ? (
          await tx
            .selectDistinct({ id: described.serverId })
            .from(serverPackages)
            .innerJoin(described.rows, eq(described.versionId, serverPackages.versionId))
            .where(and(inArray(serverPackages.ecosystem, ["jspkg", "pypkg"]), inArray(serverPackages.identifier, identifiers)))
        ).map((r) => r.id)
      : [];
    const before = await loadServerEvidence(tx, affected);

    const ok = items.flatMap((it, i) => {
      const r = results[i];
      return r.kind === "ok"
        ? [{ ecosystem: it.ecosystem, identifier: it.identifier, listedVersion: it.listedVersion, queriedVersion: it.version, advisories: r.advisories, observedAt: at, attemptedAt: at, lastError: null }]
        : [];
    });
    if (ok.length) {
      await tx
        .insert(vulnObservations)
        .values(ok)
        .onConflictDoUpdate({
          target: [vulnObservations.ecosystem, vulnObservations.identifier, vulnObservations.listedVersion],
          set: {
            queriedVersion: sql`excluded.queried_version`,
            advisories: sql`excluded.advisories`,
            observedAt: sql`excluded.observed_at`,
            attemptedAt: sql`excluded.attempted_at`,
            lastError: sql`null`,
          },
        });
    }
    const failed = items.flatMap((it, i) => {
      const r = results[i];
      return r.kind === "error"
        ? [{ ecosystem: it.ecosystem, identifier: it.identifier, listedVersion: it.listedVersion, attemptedAt: at, lastError: r.error.slice(0, 500) }]
        : [];
    });
    if (failed.length) {
      await tx
        .insert(vulnObservations)
        .values(failed)
        .onConflictDoUpdate({
          target: [vulnObservations.ecosystem, vulnObservations.identifier, vulnObservations.listedVersion],
          set: { attemptedAt: sql`excluded.attempted_at`, lastError: sql`excluded.last_error` },
        });
    }
    return await detectStateChanges(tx, before, await loadServerEvidence(tx, affected), at);
  },
};
