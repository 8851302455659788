import { eq, inArray, sql } from "drizzle-orm";
import { FRESHNESS_MS, HARVEST_CHUNK, HARVEST_CONCURRENCY } from "@/lib/config";
import type { Tx } from "@/lib/db/client";
import { remoteObservations, serverRemotes, servers } from "@/lib/db/schema";
import { probeListedRemote, type ProbeResult } from "@/lib/sources/liveness";
import { query, ts } from "./db-helpers";
import { httpFor, SKIPPED, stopping, type HarvestContext, type SourceSpec } from "./harvest-context";
import { loadServerEvidence } from "./load-server-evidence";
import type { ChangeInput } from "./record-changes";
import { pool } from "./run-source";
import { detectStateChanges } from "./state-changes";
import { storableText } from "@/lib/db/storable-text";
import { describedVersionRows } from "@/lib/facts/described-version";

interface RemoteItem {
  url: string;
  /** Every transport the listings name for this URL (probeListedRemote tries them in turn). */
  types: string[];
  attemptedAt: number | null;
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

type LivenessResult = (ProbeResult & { type: string }) | { outcome: "error"; error: string };

/**
 * Hosted endpoints of listed servers' described versions (the latest, else the one the facts read:
 * lib/facts/described-version.ts). URLs with {templates} cannot be probed without the user's values and are left
 * unobserved.
 */
function dueSql(ctx: HarvestContext) {
  const now = ctx.clock();
  const described = describedVersionRows(ctx.db, { listedOnly: true });
  return sql`
    select r.url, r.types, o.attempted_at
    from (select sr.url, array_agg(distinct sr.type) as types from server_remotes sr
          join ${described.rows} on ${described.versionId} = sr.version_id
          -- the same remotes refresh=if_stale may probe (isProbeable, lib/services/refresh-liveness.ts)
          where sr.type in ('streamable-http', 'sse') and position('{' in sr.url) = 0
          group by sr.url) r
    left join remote_observations o on o.url = r.url
    left join leases l on l.key = 'harvest:liveness:' || r.url and l.expires_at > ${ts(now)}
    where l.key is null
      and (o.observed_at is null or o.observed_at < ${ts(new Date(now.getTime() - FRESHNESS_MS.liveness))})
      and (o.attempted_at is null or o.attempted_at < ${ts(ctx.runStart)})`;
}

export const livenessSource: SourceSpec<RemoteItem, LivenessResult> = {
  source: "liveness",
  chunkSize: HARVEST_CHUNK,
  async countDue(ctx) {
    const [row] = await query<{ n: number }>(ctx.db, sql`select count(*)::int as n from (${dueSql(ctx)}) d`);
    return Number(row?.n ?? 0);
  },
  async selectDue(ctx, limit) {
    // text[] arrives as an array on every driver (node-postgres, PGlite, Neon)
    const rows = await query<{ url: string; types: string[]; attempted_at: unknown }>(
      ctx.db,
      sql`select url, types, attempted_at from (${dueSql(ctx)}) d order by d.attempted_at asc nulls first, d.url limit ${limit}`,
    );
    return rows.map((r) => ({ url: r.url, types: r.types, attemptedAt: ms(r.attempted_at) }));
  },
  key: (i) => i.url,
  async attemptsNow(ctx, items) {
    const rows = await ctx.db
      .select({ url: remoteObservations.url, at: remoteObservations.attemptedAt })
      .from(remoteObservations)
      .where(inArray(remoteObservations.url, items.map((i) => i.url)));
    return new Map(rows.map((r) => [r.url, r.at?.getTime() ?? null]));
  },
  failure: (error) => ({ outcome: "error", error }),
  // a probe that could not be made leaves the last observation in place
  failed: (r) => r.outcome === "unreachable" || r.outcome === "error",
  async fetch(ctx, items) {
    const http = httpFor(ctx, "liveness");
    // A run told to stop starts no further probe and cuts those in flight short; past the run's deadline it
    // starts none either (a chunk of endpoints that never answer takes 8 s a wave, twice for a URL listed with
    // both transports: minutes, beyond the cron's time limit). The items not probed go back untouched.
    return pool(items, HARVEST_CONCURRENCY.liveness, async (it) =>
      stopping(ctx) ? SKIPPED : probeListedRemote(it.url, it.types, { onCall: http.onCall, signal: ctx.signal }),
    );
  },

  async write(ctx, tx: Tx, items, results, at) {
    const urls = items.map((i) => i.url);
    // distinct: a version may list one URL twice (once per transport, as real listings do), and each
    // (server, URL) pair is one endpoint whose transition is one change, one event to each watcher
    const described = describedVersionRows(tx, { listedOnly: true });
    const listing = await tx
      .selectDistinct({ id: servers.id, name: servers.name, url: serverRemotes.url })
      .from(serverRemotes)
      .innerJoin(described.rows, eq(described.versionId, serverRemotes.versionId))
      .innerJoin(servers, eq(servers.id, described.serverId))
      .where(inArray(serverRemotes.url, urls));
    const affected = [...new Set(listing.map((l) => l.id))];
    const before = await loadServerEvidence(tx, affected);
    const prior = new Map((await tx.select().from(remoteObservations).where(inArray(remoteObservations.url, urls))).map((r) => [r.url, r]));

    type Row = typeof remoteObservations.$inferInsert & { live: boolean; observedAt: Date };
    const answered = items.flatMap((it, i): Row[] => {
      const r = results[i];
      if (r.outcome === "up") {
        return [
          {
            url: it.url,
            type: r.type,
            live: true,
            httpStatus: r.httpStatus,
            // an auth-protected endpoint shows no tools, nor one whose list could not be read to its end: the last
            // list seen is kept
            toolsHash: r.toolsHash ?? prior.get(it.url)?.toolsHash ?? null,
            toolsCount: r.toolsCount ?? prior.get(it.url)?.toolsCount ?? null,
            // what a remote says about itself: one NUL in its name would fail the write of the whole chunk, every run
            serverInfo: storableText(r.serverInfo) ?? prior.get(it.url)?.serverInfo ?? null,
            protocolVersion: storableText(r.protocolVersion) ?? prior.get(it.url)?.protocolVersion ?? null,
            authRequired: r.authRequired,
            observedAt: at,
            attemptedAt: at,
            lastError: null,
          },
        ];
      }
      if (r.outcome === "down") {
        const p = prior.get(it.url);
        return [
          {
            url: it.url,
            type: r.type,
            live: false,
            httpStatus: r.httpStatus,
            toolsHash: p?.toolsHash ?? null,
            toolsCount: p?.toolsCount ?? null,
            serverInfo: p?.serverInfo ?? null,
            protocolVersion: p?.protocolVersion ?? null,
            authRequired: p?.authRequired ?? null,
            observedAt: at,
            attemptedAt: at,
            lastError: storableText(r.error.slice(0, 500)),
          },
        ];
      }
      return [];
    });
    const set = Object.fromEntries(
      ["type", "live", "http_status", "tools_hash", "tools_count", "server_info", "protocol_version", "auth_required", "observed_at", "attempted_at", "last_error"].map((c) => [
        c.replace(/_([a-z])/g, (_: string, x: string) => x.toUpperCase()),
        sql.raw(`excluded.${c}`),
      ]),
    );
    if (answered.length) await tx.insert(remoteObservations).values(answered).onConflictDoUpdate({ target: remoteObservations.url, set });
    const unanswered = items.flatMap((it, i) => {
      const r = results[i];
      return r.outcome === "unreachable" || r.outcome === "error" ? [{ url: it.url, type: "type" in r ? r.type : it.types[0], attemptedAt: at, lastError: storableText(r.error.slice(0, 500)) }] : [];
    });
    if (unanswered.length) {
      await tx
        .insert(remoteObservations)
        .values(unanswered)
        .onConflictDoUpdate({ target: remoteObservations.url, set: { attemptedAt: sql`excluded.attempted_at`, lastError: sql`excluded.last_error` } });
    }

    // remote_down: observed down where it was up or never observed; remote_up: up again after down;
    // tools_changed: a new tool-list hash where another was known.
    const changes: ChangeInput[] = [];
    const now = new Map<string, Row>(answered.map((a) => [a.url, a]));
    for (const l of listing) {
      const a = now.get(l.url);
      if (!a) continue;
      const p = prior.get(l.url);
      const base = { serverId: l.id, serverName: l.name, observedAt: at };
      const snap = (o: { live?: boolean | null; httpStatus?: number | null } | undefined) => (o ? { url: l.url, live: o.live ?? null, http_status: o.httpStatus ?? null } : { url: l.url, live: null, http_status: null });
      if (a.live === false && p?.live !== false) changes.push({ ...base, kind: "remote_down", before: snap(p), after: snap(a) });
      if (a.live === true && p?.live === false) changes.push({ ...base, kind: "remote_up", before: snap(p), after: snap(a) });
      if (p?.toolsHash && a.toolsHash && p.toolsHash !== a.toolsHash) {
        changes.push({
          ...base,
          kind: "tools_changed",
          before: { url: l.url, tools_hash: p.toolsHash, tools_count: p.toolsCount },
          after: { url: l.url, tools_hash: a.toolsHash, tools_count: a.toolsCount },
        });
      }
    }
    return [...changes, ...await detectStateChanges(tx, before, await loadServerEvidence(tx, affected), at)];
  },
};
