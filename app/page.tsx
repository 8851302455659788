import { getDb } from "@/lib/db/client";
import { SEARCH_QUERY_MAX, bootIngestEnabled } from "@/lib/config";
import { getCatalogStatus } from "@/lib/services/get-catalog-status";
import { IMPORT_HINT } from "@/lib/boot/boot";
import { getStats } from "@/lib/services/get-stats";
import { listRecentServers } from "@/lib/services/list-recent-servers";
import { Time } from "./_components/time";
import { number, serverPagePath } from "./_components/format";
import { SearchBox } from "./search-box";
import { homeSearch } from "./home-search";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const db = await getDb();
  const { q } = await searchParams;
  const [status, stats, recent, search] = await Promise.all([getCatalogStatus(db), getStats(db), listRecentServers(db, { limit: 5 }), homeSearch(q)]);
  const failed = status.lastSync?.status === "failed";
  return (
    <>
      <h1>Check an MCP server before you connect to it</h1>
      <p>
        Name one exact server from the MCP registry and get <strong>PASS</strong>, <strong>REVIEW</strong> or{" "}
        <strong>BLOCK</strong> under an immutable public-evidence policy, with the reasons, the facts behind them, their
        source times and digests anyone can reproduce.
      </p>
      <p>
        What it is not: a PASS is not a security finding, not an install or execution authorization and not a sandbox.
        Stop on BLOCK, ask a human on REVIEW, and still review permissions and code on PASS.
      </p>
      <SearchBox initial={search} maxChars={SEARCH_QUERY_MAX} />
      <section aria-labelledby="stats">
        <h2 id="stats">The catalog in numbers</h2>
        <ul className="stats" data-testid="stats">
          <li>
            <strong data-testid="stat-listed">{number(stats.servers.listed)}</strong> servers listed
          </li>
          <li>
            <strong data-testid="stat-healthy">{number(stats.health.healthy)}</strong> healthy
          </li>
          <li>
            <strong data-testid="stat-issues">{number(stats.health.issues)}</strong> with issues
          </li>
          <li>
            <strong data-testid="stat-unknown">{number(stats.health.unknown)}</strong> health unknown
          </li>
          <li>
            <strong data-testid="stat-verified">{number(stats.verified)}</strong> verified
          </li>
          <li>
            <strong data-testid="stat-verified-unknown">{number(stats.verified_unknown)}</strong> verified not yet known
          </li>
          <li>
            <strong>{number(stats.evaluations_24h)}</strong> keyed evaluations in 24 h
          </li>
        </ul>
        <p className="small muted">
          Listing read <Time iso={stats.as_of} />. Verified means a live repository that is not archived, live packages and an active registry
          listing: not first-party identity and not a security finding. From <a href="/v1/stats">GET /v1/stats</a>; how fresh each source is:{" "}
          <a href="/v1/coverage">GET /v1/coverage</a>.
        </p>
        {recent.servers.length > 0 && (
          <>
            <h3>Newest in the registry</h3>
            <ul data-testid="recent">
              {recent.servers.map((c) => (
                <li key={c.server_name}>
                  <a href={serverPagePath(c.server_name)} className="wrap">
                    {c.server_name}
                  </a>{" "}
                  <span className="small muted">
                    first seen <Time iso={c.first_seen_at} />
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section aria-labelledby="catalog-status">
        <h2 id="catalog-status">Registry sync</h2>
        <p data-testid="server-count">
          {status.servers.toLocaleString("en")} servers listed
          {status.lastSuccessAt && (
            <>
              , {status.lastSuccessSource === "file" ? "last imported from a registry dump file" : "last synced from the registry"}{" "}
              <Time iso={status.lastSuccessAt} />
            </>
          )}
          .
        </p>
        {status.servers === 0 &&
          !status.lastSync &&
          (bootIngestEnabled() ? (
            <p className="notice" role="status">
              The catalog is empty and the first registry ingest has not finished yet. Reload in a minute.
            </p>
          ) : (
            <div className="notice" role="status">
              <p>The catalog is empty, and this server does not fill it on start (BOOT_INGEST=0). Import a registry dump file:</p>
              <pre>{IMPORT_HINT}</pre>
            </div>
          ))}
        {failed && (
          <div className="notice error" role="alert" data-testid="ingest-failure">
            <p>
              The last registry ingest ({status.lastSync!.origin}) failed: <code>{status.lastSync!.error}</code>
            </p>
            <p>
              Set <code>REGISTRY_URL</code> to a reachable registry and restart, or import a registry dump file:
            </p>
            <pre>{IMPORT_HINT}</pre>
          </div>
        )}
      </section>
    </>
  );
}
