import { CHECKED_PACKAGE_ECOSYSTEMS, type CheckedPackageEcosystem, type PackageFacts } from "../facts";
import type { PreflightEvidence } from "../types";
import {
  listingEvidence,
  notObservedPhrase,
  outcome,
  uriOrNull,
  withAttemptContext,
  type RuleContext,
  type RuleOutcome,
} from "./rule-context";

export function isCheckedEcosystem(ecosystem: string): ecosystem is CheckedPackageEcosystem {
  return (CHECKED_PACKAGE_ECOSYSTEMS as readonly string[]).includes(ecosystem);
}

/** `jspkg:@scope/name@1.2.3`: the ecosystem word, the identifier, and the listed version when there is one. */
export function packageArtifactId(pkg: PackageFacts): string {
  return `${pkg.ecosystem}:${pkg.identifier}${pkg.version ? `@${pkg.version}` : ""}`;
}

const label = (pkg: PackageFacts) => `${pkg.ecosystem} package ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ""}`;
const observed = (at: string | null) => (at ? ` (observed ${at})` : "");

function registryEvidence(ctx: RuleContext, pkg: PackageFacts, value: unknown): PreflightEvidence[] {
  return withAttemptContext(
    ctx.facts,
    [
      {
        source: pkg.ecosystem,
        url: uriOrNull(pkg.url),
        value,
        observed_at: pkg.observed_at,
        attempted_at: pkg.attempted_at,
        freshness_enforced: false,
      },
    ],
    { ecosystem: pkg.ecosystem, identifier: pkg.identifier, version: pkg.version },
  );
}

function vulnEvidence(ctx: RuleContext, pkg: PackageFacts): PreflightEvidence[] {
  return withAttemptContext(
    ctx.facts,
    [
      {
        source: "vuln",
        url: null,
        value: {
          identifier: pkg.identifier,
          version: pkg.version,
          // copied member by member so the reason's bytes never depend on how the facts were built
          advisories: pkg.advisories?.map((a) => ({ id: a.id, summary: a.summary, severity: a.severity })) ?? null,
        },
        observed_at: pkg.advisories_observed_at,
        attempted_at: pkg.advisories_attempted_at,
        freshness_enforced: false,
      },
    ],
    { ecosystem: pkg.ecosystem, identifier: pkg.identifier, version: pkg.version },
  );
}

/** jspkg_package_missing / pypkg_package_missing: the package (and its listed version) exists. Required. */
function packagePresence(ctx: RuleContext, pkg: PackageFacts & { ecosystem: CheckedPackageEcosystem }): RuleOutcome {
  const code = `${pkg.ecosystem}_package_missing` as const;
  const artifact = { ecosystem: pkg.ecosystem, artifact_id: packageArtifactId(pkg) };
  const evidence = registryEvidence(ctx, pkg, { exists: pkg.exists });
  if (pkg.exists === true) {
    return outcome(code, "pass", `The ${label(pkg)} exists in its registry${observed(pkg.observed_at)}.`, evidence, true, artifact);
  }
  if (pkg.exists === false) {
    return outcome(
      code,
      ctx.policy.findings[code],
      `The ${label(pkg)} that the listing names does not exist in its registry${observed(pkg.observed_at)}.`,
      evidence,
      true,
      artifact,
    );
  }
  return outcome(
    code,
    "unknown",
    `The ${label(pkg)} ${notObservedPhrase(pkg.attempted_at)} in its registry; it is required evidence under ${ctx.policy.name}.`,
    evidence,
    true,
    artifact,
  );
}

/**
 * jspkg_deprecated. Deprecation comes from the same registry record as presence, so once the package is known
 * to exist an unknown deprecation is required evidence too; while presence is unknown, jspkg_package_missing
 * carries the requirement.
 */
function jspkgDeprecated(ctx: RuleContext, pkg: PackageFacts): RuleOutcome {
  const artifact = { ecosystem: pkg.ecosystem, artifact_id: packageArtifactId(pkg) };
  const evidence = registryEvidence(ctx, pkg, { exists: pkg.exists, deprecated: pkg.deprecated });
  if (pkg.exists === false) {
    return outcome(
      "jspkg_deprecated",
      "not_applicable",
      `The ${label(pkg)} does not exist, so its deprecation does not apply.`,
      evidence,
      false,
      artifact,
    );
  }
  if (pkg.exists === null) {
    return outcome(
      "jspkg_deprecated",
      "unknown",
      `The ${label(pkg)} ${notObservedPhrase(pkg.attempted_at)}, so its deprecation is unknown.`,
      evidence,
      false,
      artifact,
    );
  }
  if (pkg.deprecated === true) {
    return outcome(
      "jspkg_deprecated",
      ctx.policy.findings.jspkg_deprecated,
      `The ${label(pkg)} is marked deprecated by its publisher${observed(pkg.observed_at)}.`,
      evidence,
      true,
      artifact,
    );
  }
  if (pkg.deprecated === false) {
    return outcome(
      "jspkg_deprecated",
      "pass",
      `The ${label(pkg)} is not marked deprecated${observed(pkg.observed_at)}.`,
      evidence,
      true,
      artifact,
    );
  }
  return outcome(
    "jspkg_deprecated",
    "unknown",
    `The deprecation state of the ${label(pkg)} was not reported; it is required evidence under ${ctx.policy.name}.`,
    evidence,
    true,
    artifact,
  );
}

/** vuln_package_advisory: advisories affecting the listed version. The look-up is required evidence. */
function vulnPackageAdvisory(ctx: RuleContext, pkg: PackageFacts): RuleOutcome {
  const artifact = { ecosystem: pkg.ecosystem, artifact_id: packageArtifactId(pkg) };
  const evidence = vulnEvidence(ctx, pkg);
  if (pkg.exists === false) {
    return outcome(
      "vuln_package_advisory",
      "not_applicable",
      `The ${label(pkg)} does not exist, so there is nothing to look up advisories for.`,
      evidence,
      false,
      artifact,
    );
  }
  const advisories = pkg.advisories;
  if (advisories === null) {
    return outcome(
      "vuln_package_advisory",
      "unknown",
      `Advisories for the ${label(pkg)} ${notObservedPhrase(pkg.advisories_attempted_at)} in the vulnerability database; the look-up is required evidence under ${ctx.policy.name}.`,
      evidence,
      true,
      artifact,
    );
  }
  if (advisories.length === 0) {
    return outcome(
      "vuln_package_advisory",
      "pass",
      `The vulnerability database lists no advisory for the ${label(pkg)}${observed(pkg.advisories_observed_at)}.`,
      evidence,
      true,
      artifact,
    );
  }
  const ids = advisories.map((a) => a.id).join(", ");
  return outcome(
    "vuln_package_advisory",
    ctx.policy.findings.vuln_package_advisory,
    `The vulnerability database lists ${advisories.length === 1 ? "1 advisory" : `${advisories.length} advisories`} for the ${label(pkg)}: ${ids}${observed(pkg.advisories_observed_at)}.`,
    evidence,
    true,
    artifact,
  );
}

/** package_not_evaluated: OCI, NuGet, MCPB and any other ecosystem are outside this ruleset revision. */
function packageNotEvaluated(ctx: RuleContext, pkg: PackageFacts): RuleOutcome {
  return outcome(
    "package_not_evaluated",
    "not_applicable",
    `The ${pkg.ecosystem} artifact ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ""} is not evaluated by this ruleset revision; only jspkg and pypkg packages are checked.`,
    [listingEvidence(ctx.facts, { ecosystem: pkg.ecosystem, identifier: pkg.identifier, version: pkg.version })],
    false,
    { ecosystem: pkg.ecosystem, artifact_id: packageArtifactId(pkg) },
  );
}

/** All package rules for one package, in rule order: presence, deprecated (jspkg), advisories. */
export function packageRules(ctx: RuleContext, pkg: PackageFacts): RuleOutcome[] {
  if (pkg.ecosystem === "jspkg") {
    const p = pkg as PackageFacts & { ecosystem: "jspkg" };
    return [packagePresence(ctx, p), jspkgDeprecated(ctx, p), vulnPackageAdvisory(ctx, p)];
  }
  if (pkg.ecosystem === "pypkg") {
    const p = pkg as PackageFacts & { ecosystem: "pypkg" };
    return [packagePresence(ctx, p), vulnPackageAdvisory(ctx, p)];
  }
  return [packageNotEvaluated(ctx, pkg)];
}
