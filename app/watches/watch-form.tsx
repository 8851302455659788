"use client";

import { useActionState } from "react";
import { createWatchAction, type CreateWatchState } from "./actions";

const KINDS = ["remote_down", "remote_up", "health_change", "verified_change", "security"] as const;

export function CreateWatchForm({ server, email, cost }: { server: string; email: string; cost: number }) {
  const [state, action, pending] = useActionState<CreateWatchState, FormData>(createWatchAction, {});
  // after an error the form shows what was sent (React resets a form to its defaults once the action ran)
  const v = state.values;
  return (
    <form action={action} className="watch-form" data-testid="create-watch">
      <div className="field">
        <label htmlFor="w-server">Server name (exact)</label>
        <input id="w-server" name="server_name" required defaultValue={v?.server_name ?? server} placeholder="io.github.owner/name" spellCheck={false} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="w-webhook">Webhook URL (https)</label>
        <input id="w-webhook" name="webhook_url" type="url" defaultValue={v?.webhook_url} placeholder="https://hooks.example.com/catalog" aria-describedby="w-target-hint" />
      </div>
      <div className="field">
        <label htmlFor="w-email">E-mail</label>
        <input id="w-email" name="email" type="email" defaultValue={v?.email} placeholder={email} aria-describedby="w-target-hint" />
      </div>
      <p id="w-target-hint" className="small muted">
        A webhook URL, an e-mail address, or both. Webhooks are signed with the secret shown once below; private and loopback addresses are
        refused. Another address than this account&apos;s gets a link to confirm first, and no notice before.
      </p>
      <fieldset>
        <legend>Events</legend>
        {KINDS.map((k) => (
          <label key={k} className="check">
            <input type="checkbox" name="events" value={k} defaultChecked={v ? v.events.includes(k) : true} /> <code>{k}</code>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="w-label">Label (optional)</label>
        <input id="w-label" name="label" maxLength={200} defaultValue={v?.label} />
      </div>
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Creating…" : `Create watch (${cost} credits)`}
        </button>
      </div>
      <div aria-live="polite">
        {state.error && (
          <p className="notice error" role="alert" data-testid="watch-error">
            {state.error}
          </p>
        )}
        {state.watch && (
          <div className="notice" role="status" data-testid="watch-created">
            <p>
              {state.created ? "Watch created" : "Watch updated"}: <code>{state.watch.id}</code> on <strong>{state.watch.server_name}</strong>.
            </p>
            {state.secret && (
              <>
                <p>
                  <strong>Copy the signing secret now.</strong> It is shown only this once; receivers check{" "}
                  <code>X-Catalog-Signature: sha256=HMAC-SHA256(body, secret)</code> with it.
                </p>
                <pre>
                  <code data-testid="watch-secret">{state.secret}</code>
                </pre>
              </>
            )}
          </div>
        )}
      </div>
    </form>
  );
}
