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
export function stateChanges(before: Map<number, ServerEvidence>, after: Map<number, ServerEvidence>, observedAt: Date): ChangeInput[] {
  const out: ChangeInput[] = [];
  for (const [id, a] of after) {
    const b = before.get(id);
    if (!b) continue;
    const base = { serverId: id, serverName: a.name, observedAt };
    if (b.state.health !== a.state.health || b.state.problems.join() !== a.state.problems.join()) {
      out.push({
        ...base,
        kind: "health_change",
        before: { health: b.state.health, problems: b.state.problems },
        after: { health: a.state.health, problems: a.state.problems },
      });
    }
    if (b.state.verified !== a.state.verified) {
      out.push({ ...base, kind: "verified_change", before: { verified: b.state.verified }, after: { verified: a.state.verified } });
    }
    if (securityChanged(b, a)) {
      out.push({ ...base, kind: "security", before: { advisories: knownAdvisories(b) }, after: { advisories: knownAdvisories(a) } });
    }
  }
  return out;
}
