import type { Facts } from "./facts";
import type { PreflightPolicy } from "./policies";
import { isCheckedEcosystem } from "./rules/packages";

const ALWAYS = [
  "The decision rests only on the public evidence in facts, observed at the times shown; the service does not read the server's code, install it or run it.",
  "A package publisher is not checked to be the repository owner, and a published package is not checked to be built from the repository.",
];

/** What the result does not cover, in a fixed order: general limits, then artifacts left out, then policy scope. */
export function buildLimitations(facts: Facts, policy: PreflightPolicy): string[] {
  const out = [...ALWAYS];
  for (const pkg of facts.packages) {
    if (!isCheckedEcosystem(pkg.ecosystem)) {
      out.push(
        `The ${pkg.ecosystem} artifact ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ""} is not evaluated (not_applicable): this ruleset revision checks only jspkg and pypkg packages.`,
      );
    }
  }
  if (facts.remotes.length > 0 && policy.hosted_liveness === "observe_only") {
    out.push(`${policy.name} reports remote liveness as context and does not require it.`);
  }
  if (facts.remotes.length > 0) {
    out.push("Liveness means the remote answered a probe; it says nothing about what the remote does.");
  }
  return out;
}
