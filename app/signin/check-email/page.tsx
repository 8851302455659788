import type { Metadata } from "next";
import { devMailboxEnabled } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Check your e-mail" };

export default function CheckEmailPage() {
  return (
    <>
      <h1>Check your e-mail</h1>
      <p role="status">A sign-in link is on its way. It works once, for 24 hours.</p>
      {devMailboxEnabled() && (
        <p className="notice">
          No mail server is configured here: open the <a href="/dev/mailbox">dev mailbox</a> (or read the link in the server
          log).
        </p>
      )}
    </>
  );
}
