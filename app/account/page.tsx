import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentAccount } from "@/lib/auth/current-account";
import { getAccountOverview } from "@/lib/services/get-account-overview";
import { CREDIT_COSTS } from "@/lib/config";
import { revokeKeyAction } from "./actions";
import { CreateKeyForm, LostKeyForm, SignOutButton } from "./account-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace("T", " ") + " UTC" : "never");

export default async function AccountPage() {
  const account = await currentAccount();
  if (!account) redirect("/signin?callbackUrl=/account");
  const { email, tier, wallet, keys } = await getAccountOverview(account);
  const live = keys.filter((k) => !k.revokedAt);
  const revoked = keys.filter((k) => k.revokedAt);
  return (
    <>
      <h1>Account</h1>
      <p>
        Signed in as <strong data-testid="account-email">{email}</strong>.
      </p>
      <SignOutButton />

      <section aria-labelledby="plan">
        <h2 id="plan">Tier and credits</h2>
        <p>
          Tier: <strong data-testid="tier">{tier}</strong> (no card needed).
        </p>
        {wallet && (
          <dl>
            <dt>Credits remaining</dt>
            <dd data-testid="credits-remaining">{wallet.remaining.toLocaleString("en")}</dd>
            <dt>Monthly grant</dt>
            <dd>
              {wallet.grant.toLocaleString("en")} ({wallet.grantRemaining.toLocaleString("en")} left this month; refills{" "}
              {wallet.periodEnd.toISOString().slice(0, 10)})
            </dd>
            <dt>Purchased (never expire)</dt>
            <dd>{wallet.purchased.toLocaleString("en")}</dd>
          </dl>
        )}
        <p>
          Costs: search {CREDIT_COSTS.search}, lookup {CREDIT_COSTS.lookup}, lookalikes {CREDIT_COSTS.lookalikes}, preflight{" "}
          {CREDIT_COSTS.preflight}, stamp {CREDIT_COSTS.stamp}, watch {CREDIT_COSTS.watch_subscribe}, config audit{" "}
          {CREDIT_COSTS.config_audit} per config. Repeating the same query, server or config on the same UTC day is free.
        </p>
      </section>

      <section aria-labelledby="keys">
        <h2 id="keys">API keys</h2>
        <p>A new key is sent to {email}; web pages never show a key, and we keep only its hash.</p>
        <CreateKeyForm />
        {live.length === 0 ? (
          <p>No active keys.</p>
        ) : (
          <table data-testid="keys">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="skip">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((k) => (
                <tr key={k.keyId} data-testid="key-row">
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td data-testid="key-name">{k.name ?? <span className="muted">none</span>}</td>
                  <td>{day(k.createdAt)}</td>
                  <td>{day(k.lastUsedAt)}</td>
                  <td>
                    {/* Two steps, without JavaScript: revoking cannot be undone and whatever uses the key (a CI job,
                        an agent) is refused from its very next call, so one stray click must not do it. */}
                    <details data-testid="revoke">
                      <summary>Revoke…</summary>
                      <p className="small">
                        Calls with <code>{k.prefix}…</code> are refused from the next one on. This cannot be undone.
                      </p>
                      <form action={revokeKeyAction}>
                        <input type="hidden" name="keyId" value={k.keyId} />
                        <button type="submit" aria-label={`Revoke key ${k.prefix}`}>
                          Revoke {k.prefix}…
                        </button>
                      </form>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {revoked.length > 0 && (
          <details>
            <summary>{revoked.length} revoked</summary>
            <ul>
              {revoked.map((k) => (
                <li key={k.keyId}>
                  <code>{k.prefix}…</code>
                  {k.name && <> “{k.name}”</>} revoked {day(k.revokedAt)}
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>

      <section aria-labelledby="lost">
        <h2 id="lost">Lost a key?</h2>
        <p>We keep only a hash of each key, so a lost key cannot be sent again: we e-mail you a new one instead.</p>
        <LostKeyForm />
      </section>
    </>
  );
}
