"use client";

import { useActionState } from "react";
import { signOut } from "next-auth/react";
import { createKeyAction, lostKeyAction, type KeyMailState } from "./actions";

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<KeyMailState>(createKeyAction, {});
  return (
    <form action={action} id="create-key">
      <button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create a key"}
      </button>
      {state.sentTo && (
        <p className="notice" role="status" data-testid="new-key-sent">
          We sent your new key (<code>{state.prefix}…</code>) to {state.sentTo}. The e-mail is the only place it
          appears: we keep only its hash, and keys are never shown on web pages. Send it in the <code>x-api-key</code>{" "}
          header.
        </p>
      )}
      <KeyMailError state={state} />
    </form>
  );
}

export function LostKeyForm() {
  const [state, action, pending] = useActionState<KeyMailState>(lostKeyAction, {});
  return (
    <form action={action}>
      <button type="submit" disabled={pending}>
        I lost a key
      </button>
      {state.sentTo && (
        <p className="notice" role="status" data-testid="lost-key-sent">
          We sent a new key (<code>{state.prefix}…</code>) to {state.sentTo}: a lost key cannot be sent again, since we keep
          only its hash. Revoke the key you lost in the list of keys above.
        </p>
      )}
      <KeyMailError state={state} />
    </form>
  );
}

function KeyMailError({ state }: { state: KeyMailState }) {
  if (!state.error) return null;
  return (
    <p className="notice error" role="alert">
      {state.error}
    </p>
  );
}

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
      Sign out
    </button>
  );
}
