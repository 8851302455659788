import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { devMailboxEnabled } from "@/lib/config";
import { listDevMail, mailboxVisibleToRequest } from "@/lib/auth/list-dev-mail";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dev mailbox", robots: { index: false } };

/**
 * Mail the server would have sent, when it has no SMTP_URL: how a new user signs
 * in on the embedded default. Absent (404) with SMTP, on Vercel, and for callers
 * that are not on this machine.
 */
export default async function DevMailboxPage() {
  if (!devMailboxEnabled() || !mailboxVisibleToRequest(await headers())) notFound();
  const mail = await listDevMail();
  return (
    <>
      <h1>Dev mailbox</h1>
      <p className="notice">
        This server has no <code>SMTP_URL</code>, so it keeps its outgoing mail here (newest first) and in its log. Set{" "}
        <code>SMTP_URL</code> to send real mail; this page then disappears.
      </p>
      {mail.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ol data-testid="mailbox">
          {mail.map((m) => (
            <li key={m.id} data-testid="mail">
              <p>
                <strong>{m.subject}</strong> to {m.to}, {m.createdAt.toISOString().slice(0, 19).replace("T", " ")} UTC
              </p>
              {m.url && (
                <p>
                  <a href={m.url} data-testid="mail-link">
                    {m.subject.startsWith("Sign in") ? "Open the sign-in link" : "Open the link"}
                  </a>
                </p>
              )}
              {/* wrapped: a mail is prose with long links, read here as the receiver's mail program would show it */}
              <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.text}</pre>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
