import { getDb } from "@/lib/db/client";
import { getCatalogStatus } from "@/lib/services/get-catalog-status";
import { IMPORT_HINT } from "@/lib/boot/boot";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const status = await getCatalogStatus(await getDb());
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
      <section aria-labelledby="catalog-status">
        <h2 id="catalog-status">Catalog</h2>
        <p data-testid="server-count">
          {status.servers.toLocaleString("en")} servers listed
          {status.lastSuccessAt ? `, last synced ${status.lastSuccessAt}` : ""}.
        </p>
        {status.servers === 0 && !status.lastSync && (
          <p className="notice" role="status">
            The catalog is empty and the first registry ingest has not finished yet. Reload in a minute.
          </p>
        )}
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
