import type { Facts } from "@/lib/engine/facts";
import { computeHealth } from "@/lib/engine/health";
import { verifiedStatus } from "@/lib/engine/verified";

/**
 * health, problems and verified of one server for change detection, from the
 * stored evidence of many servers at once (load-server-evidence.ts) rather
 * than a full facts object per server. The definitions are the engine's
 * (computeHealth, computeVerified: DESIGN §6 and the contract's HealthCard),
 * applied to the slice of the facts they read, so a health_change record
 * always agrees with the health card.
 */
export interface ServerStateInput {
  registryStatus: string | null;
  listed: boolean;
  /** null: the listing names no repository. */
  repository: { exists: boolean | null; archived: boolean | null } | null;
  /** Only the checked ecosystems (jspkg, pypkg). */
  packages: {
    ecosystem: string;
    identifier: string;
    version: string | null;
    exists: boolean | null;
    deprecated: boolean | null;
    yanked: boolean | null;
    /** null: not looked up for this version. */
    advisories: { id: string; severity: string | null }[] | null;
  }[];
  /**
   * `httpStatus`: the status of the last liveness observation, not read by health or verified: a remote_down
   * recorded from this evidence (a URL newly listed, already observed down) carries it as the liveness probe's does.
   */
  remotes: { url: string; live: boolean | null; httpStatus: number | null }[];
}

export type Health = "healthy" | "issues" | "unknown";

export interface ServerState {
  health: Health;
  problems: string[];
  verified: boolean;
  /**
   * `verified` is false only because evidence is not observed yet (the repository or a package a new version
   * names): it would be true were that found live. Like health's `unknown`, not a state to report a change to.
   */
  verifiedPending: boolean;
}

/** Exactly the fields computeHealth and computeVerified read. */
function factsOf(s: ServerStateInput): Facts {
  return {
    server: { registry_status: s.listed ? s.registryStatus : "delisted" },
    repository: s.repository ? { exists: s.repository.exists, archived: s.repository.archived } : null,
    packages: s.packages.map((p) => ({ ecosystem: p.ecosystem, identifier: p.identifier, exists: p.exists, deprecated: p.deprecated, advisories: p.advisories })),
    remotes: s.remotes.map((r) => ({ url: r.url, live: r.live })),
  } as unknown as Facts;
}

export function computeServerState(s: ServerStateInput, now = new Date(0)): ServerState {
  const facts = factsOf(s);
  const { health, problems } = computeHealth(facts, now);
  // the card's verified_status: one definition for the card and for change detection
  const status = verifiedStatus(facts, now);
  return { health, problems: [...problems], verified: status === "verified", verifiedPending: status === "unknown" };
}
