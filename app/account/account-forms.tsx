"use client";

import { useActionState } from "react";
import { signOut } from "next-auth/react";
import { createKeyAction, lostKeyAction, type CreateKeyState, type LostKeyState } from "./actions";

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<CreateKeyState>(createKeyAction, {});
  return (
    <form action={action} id="create-key">
      <button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create a key"}
      </button>
      {state.error && (
        <p className="notice error" role="alert">
          {state.error}
        </p>
      )}
      {state.key && (
        <div className="notice" role="status" data-testid="new-key">
          <p>
            <strong>Copy this key now.</strong> It is shown only this once; we keep only its hash. Send it in the{" "}
            <code>x-api-key</code> header.
          </p>
          <pre>
            <code data-testid="new-key-value">{state.key}</code>
          </pre>
        </div>
      )}
    </form>
  );
}

export function LostKeyForm() {
  const [state, action, pending] = useActionState<LostKeyState>(lostKeyAction, {});
  return (
    <form action={action}>
      <button type="submit" disabled={pending}>
        I lost a key
      </button>
      {state.sentTo && (
        <p className="notice" role="status" data-testid="lost-key-sent">
          We sent a new key (<code>{state.prefix}…</code>) to {state.sentTo}: a lost key cannot be sent again, since we keep
          only its hash. Revoke the key you lost below.
        </p>
      )}
      {state.error && (
        <p className="notice error" role="alert">
          {state.error}
        </p>
      )}
    </form>
  );
}

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
      Sign out
    </button>
  );
}
