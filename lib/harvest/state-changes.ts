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

const pkgKey = (p: { ecosystem: string; identifier: string; version: string | null }) => `${p.ecosystem}\u0000${p.identifier}\u0000${p.version ?? ""}`;

/**
 * A security change: a look-up answered with a different set of advisories
 * for a package version than the one we held, or found advisories where none
 * had been looked up. A look-up that failed (unknown) is not a change.
 */
function securityChanged(before: ServerEvidence, after: ServerEvidence): boolean {
  const prior = new Map(before.input.packages.map((p) => [pkgKey(p), p.advisories]));
  for (const p of after.input.packages) {
    if (p.advisories === null) continue;
    const was = prior.get(pkgKey(p));
    const ids = p.advisories.map((a) => a.id).sort().join(",");
    if (was === undefined || was === null) {
      if (p.advisories.length) return true;
    } else if (was.map((a) => a.id).sort().join(",") !== ids) return true;
  }
  return false;
}

/**
 * health_change, verified_change and security records for servers whose
 * evidence was read before and after a write. A server absent from either
 * side (new, or gone) is not compared.
 */
export function stateChanges(
  before: Map<number, ServerEvidence>,
  after: Map<number, ServerEvidence>,
  observedAt: Date,
  lastRecordedHealth: Map<number, { health: string; problems: string[] }> = new Map(),
  lastRecordedVerified: Map<number, boolean> = new Map(),
): ChangeInput[] {
  const out: ChangeInput[] = [];
  for (const [id, a] of after) {
    const b = before.get(id);
    if (!b) continue;
    const base = { serverId: id, serverName: a.name, observedAt };
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
    // the same for verified: not recorded while pending, and compared with the last value recorded once known
    const priorVerified = b.state.verifiedPending ? (lastRecordedVerified.get(id) ?? b.state.verified) : b.state.verified;
    if (!a.state.verifiedPending && priorVerified !== a.state.verified) {
      out.push({ ...base, kind: "verified_change", before: { verified: priorVerified }, after: { verified: a.state.verified } });
    }
    if (securityChanged(b, a)) {
      out.push({ ...base, kind: "security", before: { advisories: knownAdvisories(b) }, after: { advisories: knownAdvisories(a) } });
    }
  }
  return out;
}

/**
 * stateChanges with each server's last recorded health and verified (for servers whose health was `unknown`,
 * or whose verified was pending, before the write): one query over the changes table.
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
    return b !== undefined && ((b.state.health === "unknown" && a.state.health !== "unknown") || (b.state.verifiedPending && !a.state.verifiedPending));
  });
  const health = new Map<number, { health: string; problems: string[] }>();
  const verified = new Map<number, boolean>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await q
      .selectDistinctOn([changes.serverId, changes.kind], { serverId: changes.serverId, kind: changes.kind, after: changes.after })
      .from(changes)
      .where(and(inArray(changes.kind, ["health_change", "verified_change"]), inArray(changes.serverId, ids.slice(i, i + 1000))))
      .orderBy(changes.serverId, changes.kind, desc(changes.id));
    for (const r of rows) {
      if (r.kind === "health_change") health.set(r.serverId, r.after as { health: string; problems: string[] });
      else verified.set(r.serverId, (r.after as { verified: boolean }).verified);
    }
  }
  return stateChanges(before, after, observedAt, health, verified);
}
