import { getDb } from "@/lib/db/client";
import { confirmWatchEmail, findWatchByConfirmToken } from "@/lib/services/confirm-watch-email";
import { linkPage, noticesOf, postButton } from "@/lib/watches/link-page";

export const dynamic = "force-dynamic";

// The link mailed to an address a watch names when it is not the account's own. It works without signing
// in: the token can do nothing but confirm its one watch. GET only asks (mail scanners open links, and a scan
// must not subscribe anyone); the button POSTs and confirms.

const unknown = () => linkPage(404, "Link not valid", "<p>This confirmation link does not match any watch. It may have been mistyped.</p>");

export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await findWatchByConfirmToken(await getDb(), token);
  if (!watch) return unknown();
  if (watch.status !== "active") return linkPage(200, "Watch stopped", `<p>This watch was stopped; you will not receive ${noticesOf(watch)}.</p>`);
  if (watch.email_confirmed) return linkPage(200, "Already confirmed", `<p>You receive ${noticesOf(watch)}. Every notice has a link to stop them.</p>`);
  return linkPage(
    200,
    "Receive these notices?",
    `<p>An mcp-preflight account asked to send ${noticesOf(watch)}. Nothing is sent unless you confirm; every notice has a link to stop them.</p>${postButton("Confirm")}`,
  );
}

export async function POST(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await confirmWatchEmail(await getDb(), token);
  if (!watch) return unknown();
  if (watch.status !== "active") return linkPage(200, "Watch stopped", `<p>This watch was stopped; you will not receive ${noticesOf(watch)}.</p>`);
  return linkPage(200, "Confirmed", `<p>You will receive ${noticesOf(watch)} from the next change on.</p>`);
}
