import { listingEvidence, outcome, type RuleContext, type RuleOutcome } from "./rule-context";

/** registry_listing_status: an active listing passes; any other reported status needs a person (DESIGN §5). */
export function registryListingStatus(ctx: RuleContext): RuleOutcome {
  const { registry_status: status, version, name } = ctx.facts.server;
  const evidence = [listingEvidence(ctx.facts, { registry_status: status, version })];
  const v = version ? ` (version ${version})` : "";
  if (status === "active") {
    return outcome("registry_listing_status", "pass", `The registry lists ${name}${v} as active.`, evidence, false);
  }
  if (status === null) {
    return outcome(
      "registry_listing_status",
      "unknown",
      `The registry did not report a status for the listing of ${name}${v}.`,
      evidence,
      false,
    );
  }
  return outcome(
    "registry_listing_status",
    "review",
    `The registry lists ${name}${v} as ${status}, not active.`,
    evidence,
    false,
  );
}
