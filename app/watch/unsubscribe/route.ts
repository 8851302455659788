import { getDb } from "@/lib/db/client";
import { findWatchByUnsubscribeToken, unsubscribeWatchByToken } from "@/lib/services/unsubscribe-watch-by-token";
import { linkPage, noticesOf, postButton } from "@/lib/watches/link-page";

export const dynamic = "force-dynamic";

// The link at the foot of every watch e-mail. It works without signing in: the
// token can do nothing but unsubscribe its one watch. GET only asks (mail
// scanners open links); the button, or a mail client's one-click
// List-Unsubscribe-Post, POSTs and unsubscribes.

const unknown = () => linkPage(404, "Link not valid", "<p>This unsubscribe link does not match any watch. It may have been mistyped.</p>");

export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await findWatchByUnsubscribeToken(await getDb(), token);
  if (!watch) return unknown();
  if (watch.status !== "active") return linkPage(200, "Already unsubscribed", `<p>You no longer receive ${noticesOf(watch)}.</p>`);
  return linkPage(200, "Unsubscribe?", `<p>Stop ${noticesOf(watch)}? Webhooks of this watch stop too.</p>${postButton("Unsubscribe")}`);
}

export async function POST(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await unsubscribeWatchByToken(await getDb(), token);
  if (!watch) return unknown();
  return linkPage(200, "Unsubscribed", `<p>You will no longer receive ${noticesOf(watch)}.</p>`);
}
