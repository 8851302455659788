import type { NextAuthOptions } from "next-auth";
import EmailProvider from "next-auth/providers/email";
import { z } from "zod";
import { SIGN_IN_LINK_MAX_AGE_SECONDS, siteUrl } from "@/lib/config";
import { errorMessage } from "@/lib/db/query-error";
import { log } from "@/lib/log";
import { authSecret } from "./auth-secret";
import { drizzleAuthAdapter } from "./drizzle-adapter";
import { sendMail } from "./send-mail";
import { signInRefusalPath, takeSignInRequest } from "./sign-in-allowance";

/** Where sign-in links point: NEXTAUTH_URL, else the site's address (siteUrl: SITE_URL, Vercel's, this port). */
export function authBaseUrl(): string {
  return (process.env.NEXTAUTH_URL || siteUrl()).replace(/\/+$/, "");
}

const plainAddress = z.email().max(254);

/**
 * The address a sign-in link goes to: next-auth's own normalising (NFKC, trimmed, lower-cased), and then a plain
 * address only, as the API takes them. next-auth's default lets through whatever has one "@" and no quote, such as
 * `1 <victim@example.com>` or `victim@example.com (2)`: nodemailer sends those to victim@example.com, while the
 * hourly allowance (takeAccountMail) counted each spelling as another address, so one address could be sent any
 * number of links, under a display name the requester wrote. Throwing makes next-auth answer its EmailSignin error.
 */
export function signInAddress(identifier: string): string {
  const email = String(identifier ?? "").normalize("NFKC").trim().toLowerCase();
  if (!plainAddress.safeParse(email).success) throw new Error("Invalid email address format.");
  return email;
}

/**
 * Where next-auth may send the browser after signing in or out: next-auth's own rule (a path on this site, or a
 * URL of this site's origin; anything else is the home page), except that a callbackUrl that is no URL at all
 * (`http://x:99999`, in the query of any /api/auth route or in its cookie) is the home page too. next-auth's
 * default threw on it: a 500, and an error with its stack in the log, for one anonymous GET.
 */
export function sameSiteRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  if (url.startsWith("/")) return `${baseUrl}${url}`;
  return URL.canParse(url) && new URL(url).origin === baseUrl ? url : baseUrl;
}

/** The client of a request that did not come through the auth route, as clientIp names a caller without an address. */
const UNKNOWN_CLIENT = "unknown";

type SignInParams = Parameters<NonNullable<NonNullable<NextAuthOptions["callbacks"]>["signIn"]>>[0];

/**
 * next-auth's signIn callback, which it asks before writing a link's verification token and sending it: a request
 * past the client's hourly limit or the inbox's account mails is sent back to the sign-in page (the same answer for
 * an address with an account as for one without), and no token row is written. The link's own callback (no
 * verificationRequest) passes. A database failure is next-auth's EmailSignin: thrown, next-auth would put the
 * error's text, a failed statement's values included, in the redirect's query.
 */
async function allowSignIn({ user, account, email }: SignInParams, client: string): Promise<true | string> {
  if (!email?.verificationRequest) return true;
  try {
    const refusal = await takeSignInRequest(client, account?.providerAccountId ?? user.email ?? "");
    return refusal ? signInRefusalPath(refusal) : true;
  } catch (err) {
    log.error("sign-in link request could not be counted", { error: errorMessage(err) });
    return "/signin?error=EmailSignin";
  }
}

/**
 * authOptions() for one request to the auth route, whose sign-in link requests count against `client`
 * (allowanceAddress(clientIp(req)), the address the anonymous allowances count).
 */
export function authOptionsFor(client: string): NextAuthOptions {
  const base = authOptions();
  return { ...base, callbacks: { ...base.callbacks, signIn: (params) => allowSignIn(params, client) } };
}

let options: NextAuthOptions | undefined;

/**
 * E-mail magic-link sign-in (next-auth v4) with database sessions; accounts,
 * tokens and sessions live in our tables. Built on first use so the secret file is only
 * touched by the server, not at build time.
 */
export function authOptions(): NextAuthOptions {
  // next-auth v4 reads NEXTAUTH_URL itself; on Vercel it trusts the forwarded host instead
  if (!process.env.NEXTAUTH_URL && !process.env.VERCEL) process.env.NEXTAUTH_URL = authBaseUrl();
  options ??= {
    secret: authSecret(),
    adapter: drizzleAuthAdapter(),
    // database sessions: signing out deletes the session, so a copied cookie stops working (a JWT would not)
    session: { strategy: "database", maxAge: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    providers: [
      EmailProvider({
        maxAge: SIGN_IN_LINK_MAX_AGE_SECONDS,
        // nodemailer is only used through sendMail; this placeholder is never dialled
        server: "smtp://localhost:25",
        normalizeIdentifier: signInAddress,
        // the hourly allowances were taken in the signIn callback (allowSignIn), before the token was written
        async sendVerificationRequest({ identifier, url }) {
          await sendMail({
            to: identifier,
            subject: "Sign in to mcp-preflight",
            text: `Open this link to sign in to mcp-preflight (valid for 24 hours, once):\n\n${url}\n\nIf you did not ask for it, ignore this message.`,
            url,
          });
        },
      }),
    ],
    callbacks: {
      signIn: (params) => allowSignIn(params, UNKNOWN_CLIENT),
      redirect: async (params) => sameSiteRedirect(params),
      async session({ session, user }) {
        if (session.user && user?.id) (session.user as { id?: string }).id = user.id;
        return session;
      },
    },
  };
  return options;
}
