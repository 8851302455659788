/** The `instructions` of the initialize result: the intended flow for an agent. */
export const MCP_INSTRUCTIONS = `mcp-preflight answers one question before you connect to an MCP server: does this exact server pass a public-evidence policy?

Intended flow:
1. catalog_search to find the exact canonical server name (names are exact and case-sensitive, e.g. io.github.owner/name).
2. catalog_preflight (or catalog_stamp for a one-line record) with that name before connecting or installing.
3. BLOCK: stop, do not connect. REVIEW: ask a human, showing the reasons. PASS: proceed only with the user's permission and a review of the server's permissions and code.

A PASS is a policy result on public evidence (registry listing, repository, packages, vulnerability database, liveness); it is not a security finding, not an install or execution authorization and not a sandbox. An UNKNOWN audit verdict means the catalog has no row for that entry, not that it is fine. Never install from a result alone.

Other tools: catalog_lookup (evidence card with trust score), catalog_lookalikes (name collisions), catalog_audit_config (a whole MCP config file), catalog_watch_* (webhook or e-mail on changes, API key required), catalog_changes (change feed), catalog_policy_list, catalog_stats, catalog_recent, catalog_coverage, catalog_credits.`;
