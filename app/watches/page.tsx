import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentAccount } from "@/lib/auth/current-account";
import { accountCaller } from "@/lib/auth/account-caller";
import { getDb } from "@/lib/db/client";
import { CREDIT_COSTS, DELIVERY_RETENTION_DAYS } from "@/lib/config";
import { listWatches } from "@/lib/services/list-watches";
import { listWatchDeliveries } from "@/lib/services/list-watch-deliveries";
import { accountWatchLimit } from "@/lib/services/create-watch";
import { Time } from "@/app/_components/time";
import { serverPagePath } from "@/app/_components/format";
import { deleteWatchAction } from "./actions";
import { CreateWatchForm } from "./watch-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Watches" };

const RECENT_DELIVERIES = 5;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The signed-in account's watches through the same services as /v1/watch, with the account as the caller. */
export default async function WatchesPage({ searchParams }: Props) {
  const account = await currentAccount();
  const sp = await searchParams;
  const server = typeof sp.server === "string" ? sp.server : "";
  if (!account) redirect(`/signin?callbackUrl=${encodeURIComponent(server ? `/watches?server=${encodeURIComponent(server)}` : "/watches")}`);
  const db = await getDb();
  const caller = accountCaller(account);
  const { watches } = await listWatches(db, caller);
  const limit = await accountWatchLimit(db, account.id, caller.tier);
  const deliveries = await Promise.all(watches.map((w) => listWatchDeliveries(db, caller, w.id, RECENT_DELIVERIES)));
  return (
    <>
      <h1>Watches</h1>
      <p>
        A watch tells you when one server changes: a remote goes down or comes back, its health or verified state changes, or a security
        advisory appears. {watches.length} of {limit} active watches on your {caller.tier} account. The API does the same
        with a key: <code>POST /v1/watch</code>, <code>GET /v1/watch</code>, <code>DELETE /v1/watch?id=</code>.
      </p>

      <section aria-labelledby="new-watch">
        <h2 id="new-watch">New watch</h2>
        <CreateWatchForm server={server} email={account.email} cost={CREDIT_COSTS.watch_subscribe} />
      </section>

      <section aria-labelledby="your-watches">
        <h2 id="your-watches">Your watches</h2>
        {watches.length === 0 ? (
          <p data-testid="no-watches">No active watches.</p>
        ) : (
          <ul className="watch-list">
            {watches.map((w, i) => (
              <li key={w.id} data-testid="watch-row" data-watch-id={w.id}>
                <p>
                  <a href={serverPagePath(w.server_name)} className="wrap">
                    <strong>{w.server_name}</strong>
                  </a>{" "}
                  <code className="small">{w.id}</code>
                  {w.label ? ` · ${w.label}` : ""}
                </p>
                <p className="small wrap">
                  {w.webhook_url && (
                    <>
                      webhook <code>{w.webhook_url}</code>{" "}
                    </>
                  )}
                  {w.email && (
                    <>
                      e-mail <code>{w.email}</code>
                      {w.email_confirmed ? "" : " (waiting for the address to confirm: nothing is mailed before)"}{" "}
                    </>
                  )}
                  · events {w.events.join(", ")} · since <Time iso={w.created_at} />
                </p>
                <details>
                  <summary>
                    Recent deliveries ({deliveries[i].count}
                    {deliveries[i].count === RECENT_DELIVERIES ? "+" : ""})
                  </summary>
                  {deliveries[i].deliveries.length === 0 ? (
                    // not "no change since the watch began": a change of another kind queues nothing, and finished
                    // deliveries are pruned after DELIVERY_RETENTION_DAYS
                    <p className="small">
                      No deliveries to show. Each change of the kinds this watch asks for is queued here; finished deliveries are kept{" "}
                      {DELIVERY_RETENTION_DAYS} days.
                    </p>
                  ) : (
                    <div className="table-wrap" tabIndex={0} role="region" aria-label={`Deliveries of watch ${w.id}`}>
                      <table className="data">
                        <thead>
                          <tr>
                            <th scope="col">Event</th>
                            <th scope="col">Channel</th>
                            <th scope="col">Status</th>
                            <th scope="col">Attempts</th>
                          </tr>
                        </thead>
                        <tbody>
                          {deliveries[i].deliveries.map((d) => (
                            <tr key={`${d.event_id}:${d.channel}`}>
                              <td>
                                <code>{d.type}</code>
                                <div className="small muted">
                                  <Time iso={d.created_at} />
                                </div>
                              </td>
                              <td>{d.channel}</td>
                              <td>
                                {d.status}
                                {d.next_attempt_at && (
                                  <div className="small muted">
                                    next try <Time iso={d.next_attempt_at} />
                                  </div>
                                )}
                              </td>
                              <td className="small">
                                {d.attempt_log.length === 0
                                  ? "none yet"
                                  : d.attempt_log.map((a) => (
                                      <div key={a.attempt}>
                                        #{a.attempt} {a.ok ? "ok" : "failed"}
                                        {a.status_code !== null ? ` HTTP ${a.status_code}` : ""}
                                        {a.error ? `: ${a.error}` : ""} ({a.duration_ms} ms)
                                      </div>
                                    ))}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
                </details>
                <form action={deleteWatchAction}>
                  <input type="hidden" name="id" value={w.id} />
                  <button type="submit" aria-label={`Delete watch ${w.id} of ${w.server_name}`}>
                    Delete
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
