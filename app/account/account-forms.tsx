"use client";

import { useActionState } from "react";
import { signOut } from "next-auth/react";
import { API_KEY_NAME_MAX_LENGTH } from "@/lib/config";
import { createKeyAction, lostKeyAction, type KeyMailState } from "./actions";

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<KeyMailState, FormData>(createKeyAction, {});
  return (
    <form action={action} id="create-key">
      {/* no maxLength: the limit counts the name trimmed, and a longer one is refused in words (key-refusal.ts) */}
      <label htmlFor="key-name">Key name (optional, up to {API_KEY_NAME_MAX_LENGTH} characters)</label>{" "}
      {/* React empties a form after its action: a refused name comes back to be shortened */}
      <input id="key-name" name="name" defaultValue={state.error ? state.name : ""} placeholder="CI, laptop…" autoComplete="off" />{" "}
      <button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create a key"}
      </button>
      {state.sentTo && (
        <p className="notice" role="status" data-testid="new-key-sent">
          We sent your new key (<code>{state.prefix}…</code>{state.name && <>, named “{state.name}”</>}) to {state.sentTo}. The e-mail is the only place it
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

/**
 * Without JavaScript a bare button could do nothing (next-auth signs out by a POST that carries its CSRF token),
 * so the form opens next-auth's own sign-out page, whose form carries the token; with JavaScript one click
 * signs out.
 */
export function SignOutButton() {
  return (
    <form
      action="/api/auth/signout"
      method="get"
      onSubmit={(e) => {
        e.preventDefault();
        void signOut({ callbackUrl: "/" });
      }}
    >
      <input type="hidden" name="callbackUrl" value="/" />
      <button type="submit">Sign out</button>
    </form>
  );
}
