import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { devMailboxEnabled } from "@/lib/config";
import { callbackUrlCookieName, csrfCookieName, csrfTokenOf } from "@/lib/auth/csrf-token";
import { authBaseUrl } from "@/lib/auth/auth-options";
import { returnPath } from "@/lib/auth/return-path";
import { SignInForm } from "./sign-in-form";
import { signInRefusalText } from "./sign-in-refusal";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignin: "The sign-in e-mail could not be sent: check that the address is a plain one (you@example.com), then try again.",
};

// a parameter given twice arrives as an array (`?callbackUrl=/a&callbackUrl=/b`): the first counts, as on /changes
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const error = one(sp.error);
  const [jar, h] = await Promise.all([cookies(), headers()]);
  // An expired or used sign-in link lands here as /signin?error=Verification (next-auth's error redirect drops
  // the callbackUrl), the page it was for only in next-auth's callback-url cookie, which that link's callback set
  // (or the request for it did): without it, the new link went to /account. Only on an error: a plain visit to
  // /signin is not sent to whatever page an older sign-in or sign-out left in the cookie.
  const callbackUrl = one(sp.callbackUrl) ?? (error ? jar.get(callbackUrlCookieName(h))?.value : undefined);
  // a path on this site (next-auth sends a refused address back with it made absolute), else /account
  const target = returnPath(callbackUrl, authBaseUrl());
  // the cookie middleware.ts makes sure of, so the form also works as a plain HTML post (no JavaScript)
  const csrfToken = csrfTokenOf(jar.get(csrfCookieName(h))?.value);
  return (
    <>
      <h1>Sign in</h1>
      <p>
        An account is free and needs no card: it gives you API keys and 1,000 credits a month. We e-mail you a link; no
        password.
      </p>
      {error && (
        <p className="notice error" role="alert">
          {signInRefusalText(error, one(sp.retry), new Date()) ?? ERRORS[error] ?? "Sign-in failed. Ask for a new link."}
        </p>
      )}
      <SignInForm callbackUrl={target} csrfToken={csrfToken} />
      {devMailboxEnabled() && (
        <p className="notice">
          This server has no mail server configured (<code>SMTP_URL</code>): the link is written to the server log and to the{" "}
          <a href="/dev/mailbox">dev mailbox</a>.
        </p>
      )}
    </>
  );
}
