"use client";

import { useState } from "react";
import { signIn } from "next-auth/react";

/**
 * With JavaScript, next-auth's client signs in (it fetches its own csrf token). Without, the same form is a plain
 * POST to next-auth's endpoint, carrying the token of the cookie the page was served with.
 */
export function SignInForm({ callbackUrl, csrfToken }: { callbackUrl: string; csrfToken: string | null }) {
  const [pending, setPending] = useState(false);
  return (
    <form
      method="post"
      action="/api/auth/signin/email"
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        const email = String(new FormData(e.currentTarget).get("email") ?? "");
        await signIn("email", { email, callbackUrl });
        setPending(false);
      }}
    >
      {csrfToken && <input type="hidden" name="csrfToken" value={csrfToken} />}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <label htmlFor="email">E-mail address</label>{" "}
      <input id="email" name="email" type="email" required autoComplete="email" />{" "}
      <button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a sign-in link"}
      </button>
    </form>
  );
}
