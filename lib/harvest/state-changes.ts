import { and, desc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { changes } from "@/lib/db/schema";
import type { ChangeInput } from "./record-changes";
import type { ServerEvidence } from "./load-server-evidence";

type Adv = { ecosystem: string; identifier: string; version: string | null; id: string; severity: string | null };

function knownAdvisories(e: ServerEvidence): Adv[] {
  return e.input.packages.flatMap((p) =>
    (p.advisories ?? []).map((a) => ({ ecosystem: p.ecosystem, identifier: p.identifier, version: p.version, id: a.id, severity: a.severity ?? null })),
  );
}

/** A package of a server, whatever version of it the server lists: what a security record compares. */
const pkgKey = (p: { ecosystem: string; identifier: string }) => `${p.ecosystem}\u0000${p.identifier}`;

/** The advisory ids of each package the server lists whose look-up answered (a package not looked up is absent). */
function lookedUp(e: ServerEvidence): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of e.input.packages) {
    if (p.advisories === null) continue;
    const ids = out.get(pkgKey(p)) ?? new Set<string>();
    for (const a of p.advisories) ids.add(a.id);
    out.set(pkgKey(p), ids);
  }
  return out;
}

/** Packages looked up after the write that were not before (a new version of them, or a package new to the server). */
function newlyLookedUp(before: ServerEvidence, after: ServerEvidence): string[] {
  const prior = lookedUp(before);
  return [...lookedUp(after).keys()].filter((k) => !prior.has(k));
}

const sameIds = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((id) => b.has(id));

/**
 * A security change: a look-up answered with a different set of advisories for a package than the one held
 * for it. A package whose look-up was pending before the write (a new version names it at a version not looked
 * up yet) is compared with the advisories last recorded for it (`recorded`: the server's last security record;
 * none recorded, none known), as health leaving `unknown` is: a version bump that keeps the advisory the old
 * version had changes nothing, and one that fixes it is the advisory going away. A failed look-up is not a change.
 */
function securityChange(before: ServerEvidence, after: ServerEvidence, recorded: Adv[]): { before: Adv[] } | null {
  const prior = lookedUp(before);
  const fromRecord = (k: string) => new Set(recorded.filter((a) => pkgKey(a) === k).map((a) => a.id));
  let changed = false;
  const borrowed: string[] = [];
  for (const [k, ids] of lookedUp(after)) {
    const was = prior.get(k);
    if (was === undefined) borrowed.push(k);
    if (!sameIds(was ?? fromRecord(k), ids)) changed = true;
  }
  if (!changed) return null;
  // the before side shows what was known of each package: the record's advisories of those pending before
  return { before: [...knownAdvisories(before), ...recorded.filter((a) => borrowed.includes(pkgKey(a)))] };
}

/**
 * remote_down records of remote URLs a server's listing names after the write and did not before (a new version
 * lists them) whose last liveness observation is down. The liveness harvester records remote_down only when a
 * probe sees an endpoint go down; one already down when a server starts listing it would never be reported to
 * that server's watchers, though its card shows it down at once. Its `before` is the URL as it was to this
 * server: new to it, its liveness unknown.
 */
function newlyListedDown(before: ServerEvidence, after: ServerEvidence): { url: string; httpStatus: number | null }[] {
  const known = new Set(before.input.remotes.map((r) => r.url));
  const out = new Map<string, number | null>();
  for (const r of after.input.remotes) if (!known.has(r.url) && r.live === false && !out.has(r.url)) out.set(r.url, r.httpStatus);
  return [...out].map(([url, httpStatus]) => ({ url, httpStatus }));
}

/**
 * remote_down (a URL newly listed and already observed down), health_change, verified_change and security records
 * for servers whose evidence was read before and after a write. A server absent from either side (new, or gone)
 * is not compared.
 */
export function stateChanges(
  before: Map<number, ServerEvidence>,
  after: Map<number, ServerEvidence>,
  observedAt: Date,
  lastRecordedHealth: Map<number, { health: string; problems: string[] }> = new Map(),
  lastRecordedVerified: Map<number, boolean> = new Map(),
  lastRecordedAdvisories: Map<number, Adv[]> = new Map(),
): ChangeInput[] {
  const out: ChangeInput[] = [];
  for (const [id, a] of after) {
    const b = before.get(id);
    if (!b) continue;
    const base = { serverId: id, serverName: a.name, observedAt };
    for (const r of newlyListedDown(b, a)) {
      out.push({ ...base, kind: "remote_down", before: { url: r.url, live: null, http_status: null }, after: { url: r.url, live: false, http_status: r.httpStatus } });
    }
    // Health becomes `unknown` only while a new listing's evidence is pending, which
    // is not a transition of the server; leaving `unknown` is compared with the
    // last health recorded for it, so a new version that changes nothing records nothing.
    const prior = b.state.health === "unknown" ? (lastRecordedHealth.get(id) ?? b.state) : b.state;
    const same = (x: { health: string; problems: string[] }) => x.health === a.state.health && x.problems.join() === a.state.problems.join();
    if (a.state.health !== "unknown" && !same(prior) && !same(b.state)) {
      out.push({
        ...base,
        kind: "health_change",
        before: { health: prior.health, problems: prior.problems },
        after: { health: a.state.health, problems: a.state.problems },
      });
    }
    // the same for verified: not recorded while pending, and compared with the last value recorded once known;
    // a first known value is recorded from null, as health's from `unknown`: a pending `false` was never observed
    const priorVerified = b.state.verifiedPending ? (lastRecordedVerified.get(id) ?? null) : b.state.verified;
    if (!a.state.verifiedPending && priorVerified !== a.state.verified) {
      out.push({ ...base, kind: "verified_change", before: { verified: priorVerified }, after: { verified: a.state.verified } });
    }
    const security = securityChange(b, a, lastRecordedAdvisories.get(id) ?? []);
    if (security) out.push({ ...base, kind: "security", before: { advisories: security.before }, after: { advisories: knownAdvisories(a) } });
  }
  return out;
}

/**
 * stateChanges with each server's last recorded health, verified and advisories (for servers whose health was
 * `unknown`, whose verified was pending, or a package of which was not looked up, before the write): one query
 * over the changes table.
 */
export async function detectStateChanges(
  q: Queryable,
  before: Map<number, ServerEvidence>,
  after: Map<number, ServerEvidence>,
  observedAt: Date,
): Promise<ChangeInput[]> {
  const ids = [...after.keys()].filter((id) => {
    const b = before.get(id);
    const a = after.get(id)!;
    return (
      b !== undefined &&
      ((b.state.health === "unknown" && a.state.health !== "unknown") || (b.state.verifiedPending && !a.state.verifiedPending) || newlyLookedUp(b, a).length > 0)
    );
  });
  const health = new Map<number, { health: string; problems: string[] }>();
  const verified = new Map<number, boolean>();
  const advisories = new Map<number, Adv[]>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await q
      .selectDistinctOn([changes.serverId, changes.kind], { serverId: changes.serverId, kind: changes.kind, after: changes.after })
      .from(changes)
      .where(and(inArray(changes.kind, ["health_change", "verified_change", "security"]), inArray(changes.serverId, ids.slice(i, i + 1000))))
      .orderBy(changes.serverId, changes.kind, desc(changes.id));
    for (const r of rows) {
      if (r.kind === "health_change") health.set(r.serverId, r.after as { health: string; problems: string[] });
      else if (r.kind === "verified_change") verified.set(r.serverId, (r.after as { verified: boolean }).verified);
      else advisories.set(r.serverId, (r.after as { advisories: Adv[] }).advisories);
    }
  }
  return stateChanges(before, after, observedAt, health, verified, advisories);
}
