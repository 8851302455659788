import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { devMailboxEnabled } from "@/lib/config";
import { csrfCookieName, csrfTokenOf } from "@/lib/auth/csrf-token";
import { authBaseUrl } from "@/lib/auth/auth-options";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignin: "The sign-in e-mail could not be sent: check that the address is a plain one (you@example.com); or this address was sent several in the last hour. Try again later.",
};

// a parameter given twice arrives as an array (`?callbackUrl=/a&callbackUrl=/b`): the first counts, as on /changes
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * Where the form sends the reader once signed in: a path on this site, else /account. next-auth sends a refused
 * address back here with the callbackUrl made absolute (`http://host/watches?server=…`): a URL of this site's own
 * origin is that path, or the next try signed the reader in to /account instead of the page they were going to.
 */
function returnPath(callbackUrl: string | undefined): string {
  if (callbackUrl?.startsWith("/")) return callbackUrl;
  if (!callbackUrl || !URL.canParse(callbackUrl)) return "/account";
  const url = new URL(callbackUrl);
  return url.origin === new URL(authBaseUrl()).origin ? `${url.pathname}${url.search}${url.hash}` : "/account";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = one(sp.callbackUrl);
  const error = one(sp.error);
  const target = returnPath(callbackUrl);
  // the cookie middleware.ts makes sure of, so the form also works as a plain HTML post (no JavaScript)
  const csrfToken = csrfTokenOf((await cookies()).get(csrfCookieName(await headers()))?.value);
  return (
    <>
      <h1>Sign in</h1>
      <p>
        An account is free and needs no card: it gives you API keys and 1,000 credits a month. We e-mail you a link; no
        password.
      </p>
      {error && (
        <p className="notice error" role="alert">
          {ERRORS[error] ?? "Sign-in failed. Ask for a new link."}
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
