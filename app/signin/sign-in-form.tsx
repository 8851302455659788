"use client";

import { useState } from "react";
import { signIn } from "next-auth/react";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        const email = String(new FormData(e.currentTarget).get("email") ?? "");
        await signIn("email", { email, callbackUrl });
        setPending(false);
      }}
    >
      <label htmlFor="email">E-mail address</label>{" "}
      <input id="email" name="email" type="email" required autoComplete="email" />{" "}
      <button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a sign-in link"}
      </button>
    </form>
  );
}
