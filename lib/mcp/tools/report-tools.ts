import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { recentQuerySchema } from "@/lib/schemas/reports";
import { changeFeedQuerySchema } from "@/lib/schemas/changes";
import { CHANGE_FEED_DEFAULT_LIMIT, CHANGE_FEED_MAX_LIMIT } from "@/lib/config";
import { getStats } from "@/lib/services/get-stats";
import { listRecentServers } from "@/lib/services/list-recent-servers";
import { getCoverage } from "@/lib/services/get-coverage";
import { listChanges } from "@/lib/services/list-changes";
import { defineTool } from "../run-tool";

export function registerReportTools(server: McpServer) {
  defineTool(server, {
    name: "catalog_stats",
    title: "Headline counts",
    description: "Headline counts of the catalog: servers by registry status and health, verified servers, artifact kinds, evaluations in the last 24 h. Unmetered.",
    schema: null,
    output: "StatsReport",
    run: async () => {
      const s = await getStats(await getDb());
      return { data: s, summary: `${s.servers.listed} listed servers (as of ${s.as_of ?? "never synced"}); ${s.verified} verified (${s.verified_unknown} not yet known); health ${JSON.stringify(s.health)}` };
    },
  });

  defineTool(server, {
    name: "catalog_recent",
    title: "Recently discovered servers",
    description:
      "The newest servers by first_seen_at, as evidence cards, paginated with next_cursor. New servers have little evidence yet: run catalog_preflight before " +
      "connecting. Unmetered.",
    schema: recentQuerySchema,
    output: "RecentResult",
    run: async (input) => {
      const r = await listRecentServers(await getDb(), input);
      return { data: r, summary: r.servers.map((c) => `${c.server_name} (first seen ${String((c as Record<string, unknown>).first_seen_at ?? "?")})`).join("\n") || "no servers" };
    },
  });

  defineTool(server, {
    name: "catalog_coverage",
    title: "Coverage and provenance",
    description:
      "How much the catalog knows and how fresh it is: census totals, per-source coverage and freshness, identity evidence, harvest state and the discovery " +
      "pipeline. Use it to judge how much an UNKNOWN or a stale fact says. Unmetered.",
    schema: null,
    output: "CoverageReport",
    run: async () => {
      const c = await getCoverage(await getDb());
      return { data: c, summary: "coverage report: census, sources, identity, harvest and discovery state (see structured content)" };
    },
  });

  defineTool(server, {
    name: "catalog_changes",
    title: "Change feed",
    description:
      "Observed transitions across every server (server_new, remote_down, remote_up, tools_changed, health_change, verified_change, security, endpoint_moved, " +
      "registry_status, spec_era_change), oldest first from `since` (the next_cursor of your last call; omit it for the newest page); " +
      `limit 1–${CHANGE_FEED_MAX_LIMIT} (default ${CHANGE_FEED_DEFAULT_LIMIT}). Poll hourly. REST twin: ` +
      "GET /v1/changes. Unmetered.",
    schema: changeFeedQuerySchema,
    output: "ChangeFeed",
    run: async (input) => {
      const r = await listChanges(await getDb(), input);
      const listed = r.changes.slice(0, 10).map((c) => `${c.kind} ${c.server_name}`).join("; ");
      const count = r.changes.length === 1 ? "1 change" : `${r.changes.length || "no"} changes`;
      return { data: r, summary: `${count}${r.has_more ? ", more after next_cursor" : ""}${listed ? `: ${listed}` : ""}` };
    },
  });
}
