import type { PackageFacts } from "../facts";
import { isCheckedEcosystem, met, notApplicable, unknown, unmet, when, plural, type FactorSpec } from "./trust-factor";

/**
 * Packages as evidence text, each once and under its own ecosystem: "jspkg: a, b" or "jspkg: a; pypkg: b"
 * (`bare`: without the ecosystem word when every package is of one, as the vuln source speaks for them all). The
 * registry lists one package once per transport (stdio and streamable-http), and a server may list a jspkg and a
 * pypkg package side by side: named under the first one's ecosystem, or once per entry, the text was wrong.
 */
function named(pkgs: PackageFacts[], show: (p: PackageFacts) => string, bare = false): { text: string; count: number } {
  const byEcosystem = new Map<string, Set<string>>();
  for (const p of pkgs) {
    const shown = byEcosystem.get(p.ecosystem) ?? new Set<string>();
    shown.add(show(p));
    byEcosystem.set(p.ecosystem, shown);
  }
  const groups = [...byEcosystem];
  const count = groups.reduce((n, [, shown]) => n + shown.size, 0);
  if (bare && groups.length === 1) return { text: [...groups[0][1]].join(", "), count };
  return { text: groups.map(([eco, shown]) => `${eco}: ${[...shown].join(", ")}`).join("; "), count };
}

const withVersion = (p: PackageFacts) => `${p.identifier}@${p.version ?? "latest"}`;
const doesOrDo = (n: number) => (n === 1 ? "does" : "do");

export const noKnownAdvisories: FactorSpec = {
  factor: "no_known_advisories",
  pillar: "security",
  max: 10,
  measures: "every listed jspkg/pypkg package version was looked up in the vulnerability database and none is affected",
  score(facts) {
    const checked = facts.packages.filter((p) => isCheckedEcosystem(p.ecosystem));
    if (!checked.length) return notApplicable("no listed jspkg or pypkg package to look up");
    // a missing package has no version to look up (packages_intact counts it); say it is missing, not unlisted
    const pkgs = checked.filter((p) => p.exists !== false);
    if (!pkgs.length) {
      const p = checked[0];
      const missing = named(checked, (x) => x.identifier);
      return notApplicable(`${missing.text} ${doesOrDo(missing.count)} not exist, so no listed version can be looked up (${when(p.observed_at, p.attempted_at)})`);
    }
    const affected = pkgs.filter((p) => p.advisories && p.advisories.length);
    if (affected.length) {
      // one advisory is one, however many listed entries (or packages) it affects
      const ids = [...new Set(affected.flatMap((p) => p.advisories!.map((a) => a.id)))].sort();
      const verb = ids.length === 1 ? "affects" : "affect";
      return unmet(`vuln: ${plural(ids.length, "advisory", "advisories")} ${verb} ${named(affected, withVersion, true).text}: ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`);
    }
    const notLooked = pkgs.filter((p) => p.advisories === null);
    if (notLooked.length) {
      const p = notLooked[0];
      return unknown(`the vulnerability look-up of ${named(notLooked, (x) => x.identifier, true).text} (${when(p.advisories_observed_at, p.advisories_attempted_at)})`);
    }
    const oldest = pkgs.map((p) => p.advisories_observed_at).filter((t): t is string => !!t).sort()[0] ?? null;
    return met(10, `vuln: no advisory affects ${named(pkgs, withVersion, true).text} (${when(oldest)})`);
  },
};

export const packagesIntact: FactorSpec = {
  factor: "packages_intact",
  pillar: "security",
  max: 5,
  measures: "every listed jspkg/pypkg package exists and its listed version is not deprecated",
  score(facts) {
    const pkgs = facts.packages.filter((p) => isCheckedEcosystem(p.ecosystem));
    if (!pkgs.length) return notApplicable("no listed jspkg or pypkg package");
    const missing = pkgs.filter((p) => p.exists === false);
    if (missing.length) {
      const m = named(missing, (p) => p.identifier);
      return unmet(`${m.text} ${doesOrDo(m.count)} not exist (${when(missing[0].observed_at, missing[0].attempted_at)})`);
    }
    const deprecated = pkgs.filter((p) => p.deprecated === true);
    if (deprecated.length) return unmet(`${named(deprecated, withVersion).text} deprecated (${when(deprecated[0].observed_at)})`);
    const unseen = pkgs.filter((p) => p.exists === null || p.deprecated === null);
    if (unseen.length) return unknown(`${named(unseen, (p) => p.identifier).text} (${when(unseen[0].observed_at, unseen[0].attempted_at)})`);
    const oldest = pkgs.map((p) => p.observed_at).filter((t): t is string => !!t).sort()[0] ?? null;
    const all = named(pkgs, (p) => p.identifier);
    return met(5, `${all.text} ${all.count === 1 ? "exists" : "exist"}, not deprecated (${when(oldest)})`);
  },
};

/**
 * A listed version that pins one release: an image digest, or a release number (a digit first, after an optional
 * `v`) with no range operators. A word is a tag that moves (`latest`, `next`, an image's `:main` or `:test`, PyPI's
 * `auto`), as the facts read every listed version not starting with a digit (pinnedVersion in
 * lib/facts/listed-version-exists.ts: the registry's latest is what runs).
 */
export function isPinnedVersion(v: string | null): boolean {
  if (!v) return false;
  const t = v.trim();
  if (/^sha(256|384|512):[0-9a-f]+$/i.test(t)) return true;
  if (!/^v?\d/i.test(t)) return false;
  return !/[\s^~*<>=|]|\bx\b/i.test(v);
}

/** The version a package entry pins: its version, or for an OCI image without one, the tag or digest of its reference. */
export function listedVersion(p: { ecosystem: string; identifier: string; version: string | null }): string | null {
  if (p.version) return p.version;
  if (p.ecosystem === "oci") {
    const digest = p.identifier.indexOf("@");
    if (digest >= 0) return p.identifier.slice(digest + 1);
    const name = p.identifier.slice(p.identifier.lastIndexOf("/") + 1);
    const colon = name.indexOf(":");
    return colon >= 0 ? name.slice(colon + 1) : null;
  }
  return null;
}

/**
 * An MCPB bundle is one file at a download URL whose SHA-256 the registry requires (`fileSha256`; the catalog does
 * not keep it), so the listing pins exactly what is installed whether or not it also gives a version.
 */
const pinnedByFileHash = (p: { ecosystem: string }) => p.ecosystem === "mcpb";

export const pinnedVersions: FactorSpec = {
  factor: "pinned_versions",
  pillar: "security",
  max: 5,
  measures: "every listed package names the exact version to install (a release number or image digest, not a tag that moves; an MCPB bundle by its file's SHA-256)",
  score(facts) {
    if (!facts.packages.length) return notApplicable("the listing names no package");
    const loose = facts.packages.filter((p) => !pinnedByFileHash(p) && !isPinnedVersion(listedVersion(p)));
    // each once: the registry lists a package once per transport
    if (loose.length) return unmet(`registry: ${[...new Set(loose.map((p) => `${p.identifier} (${p.version ?? "no version"})`))].join(", ")} not pinned to one version`);
    const shown = new Set(
      facts.packages.map((p) => (p.version ? `${p.identifier}@${p.version}` : pinnedByFileHash(p) ? `${p.identifier} (by its file's SHA-256)` : p.identifier)),
    );
    return met(5, `registry: ${[...shown].join(", ")} pinned (observed ${facts.server.listing_observed_at})`);
  },
};

export const httpsEndpoints: FactorSpec = {
  factor: "https_endpoints",
  pillar: "security",
  max: 5,
  measures: "every hosted remote endpoint uses https",
  score(facts) {
    if (!facts.remotes.length) return notApplicable("the listing names no remote endpoint");
    const plain = facts.remotes.filter((r) => !/^https:\/\//i.test(r.url));
    if (plain.length) return unmet(`registry: ${plain.map((r) => r.url).join(", ")} not https`);
    return met(5, `registry: ${plural(facts.remotes.length, "remote")} over https (observed ${facts.server.listing_observed_at})`);
  },
};

export const SECURITY_FACTORS = [noKnownAdvisories, packagesIntact, pinnedVersions, httpsEndpoints];
