import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { CREDIT_COSTS, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_QUERY_MIN } from "@/lib/config";
import { searchQuerySchema, serverNameQuerySchema } from "@/lib/schemas/health-card";
import { searchServers } from "@/lib/services/search-servers";
import { getServerCard } from "@/lib/services/get-server-card";
import { listLookalikes } from "@/lib/services/list-lookalikes";
import { verifiedWords } from "@/lib/cards/verified-words";
import { defineTool } from "../run-tool";

export function registerCatalogTools(server: McpServer) {
  defineTool(server, {
    name: "catalog_search",
    title: "Search MCP servers",
    description:
      "Find MCP servers by name, title or description (typo-tolerant) and pick the EXACT canonical name to pass to catalog_preflight or catalog_lookup. " +
      "Results are evidence cards with health and a trust score; a high score is not a security finding and not a decision — run catalog_preflight before " +
      `connecting. q: at least ${SEARCH_QUERY_MIN} characters after trimming; limit 1–${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}). Costs ${CREDIT_COSTS.search} credit per distinct query a day.`,
    schema: searchQuerySchema,
    options: { metered: true, cost: CREDIT_COSTS.search },
    output: "SearchResult",
    run: async (input, ctx) => {
      const r = await searchServers(await getDb(), input, ctx);
      return {
        data: r,
        summary: r.count
          ? `${r.count} result(s): ${r.results.slice(0, 10).map((c) => `${c.server_name} (${c.health}, trust ${c.trust_score})`).join("; ")}`
          : `no server matches "${input.q}"`,
      };
    },
  });

  defineTool(server, {
    name: "catalog_lookup",
    title: "Evidence card of one server",
    description:
      "The full evidence card of one exact canonical server name: health and its problems, verified (live repository not archived, live package, active " +
      "listing — not first-party identity and not a security finding), trust score with every factor and its evidence, repository, packages, remotes and " +
      `evidence times. Unknown evidence is said to be unknown. Use catalog_preflight for a decision. Costs ${CREDIT_COSTS.lookup} credit per server a day.`,
    schema: serverNameQuerySchema,
    options: { metered: true, cost: CREDIT_COSTS.lookup },
    output: "HealthCardResponse",
    run: async ({ name }, ctx) => {
      const card = await getServerCard(await getDb(), name, ctx);
      return {
        data: card,
        summary: `${card.server_name}: health ${card.health}${card.health_problems.length ? ` (${card.health_problems.join(", ")})` : ""}, verified ${verifiedWords(card)}, trust ${card.trust_score}/100`,
      };
    },
  });

  defineTool(server, {
    name: "catalog_lookalikes",
    title: "Name collisions of one server",
    description:
      "Other catalog servers whose names collide with this exact name (the same server part under another namespace, or equal after case, separator and " +
      "homoglyph folding). Use it to check you picked the intended publisher before catalog_preflight. " +
      `Costs ${CREDIT_COSTS.lookalikes} credit.`,
    schema: serverNameQuerySchema,
    options: { metered: true, cost: CREDIT_COSTS.lookalikes },
    output: "LookalikesResult",
    run: async ({ name }, ctx) => {
      const r = await listLookalikes(await getDb(), name, ctx);
      return { data: r, summary: r.count
          ? `${r.count} lookalike(s) of ${name}${r.lookalikes.length < r.count ? ` (the ${r.lookalikes.length} oldest shown)` : ""}: ${r.lookalikes.map((l) => l.name).join(", ")}`
          : `no lookalikes of ${name}` };
    },
  });
}
