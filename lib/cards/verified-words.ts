import type { HealthCard } from "@/lib/schemas/health-card";

/**
 * The card's verified as a person reads it on the server page, the Open Graph image and the MCP summary: "yes",
 * "no", or "not yet known" while the contract's boolean is false only because evidence is not observed yet
 * (verified_status unknown). A server never harvested is not "not verified".
 */
export function verifiedWords(card: Pick<HealthCard, "verified_status">): "yes" | "no" | "not yet known" {
  return card.verified_status === "verified" ? "yes" : card.verified_status === "unknown" ? "not yet known" : "no";
}
