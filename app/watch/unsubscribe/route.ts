import { getDb } from "@/lib/db/client";
import { findWatchByUnsubscribeToken, unsubscribeWatchByToken } from "@/lib/services/unsubscribe-watch-by-token";
import type { WatchView } from "@/lib/schemas/watch";

export const dynamic = "force-dynamic";

// The link at the foot of every watch e-mail. It works without signing in: the
// token can do nothing but unsubscribe its one watch. GET only asks (mail
// scanners open links); the button, or a mail client's one-click
// List-Unsubscribe-Post, POSTs and unsubscribes.

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${esc(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${esc(title)}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

const what = (w: WatchView) => `notices about <strong>${esc(w.server_name)}</strong>${w.email ? ` to ${esc(w.email)}` : ""}${w.label ? ` (“${esc(w.label)}”)` : ""}`;
const unknown = () => page(404, "Link not valid", "<p>This unsubscribe link does not match any watch. It may have been mistyped.</p>");

export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await findWatchByUnsubscribeToken(await getDb(), token);
  if (!watch) return unknown();
  if (watch.status !== "active") return page(200, "Already unsubscribed", `<p>You no longer receive ${what(watch)}.</p>`);
  return page(
    200,
    "Unsubscribe?",
    `<p>Stop ${what(watch)}? Webhooks of this watch stop too.</p><form method="post"><button type="submit" style="font-size:1rem;padding:.5rem 1rem">Unsubscribe</button></form>`,
  );
}

export async function POST(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const watch = await unsubscribeWatchByToken(await getDb(), token);
  if (!watch) return unknown();
  return page(200, "Unsubscribed", `<p>You will no longer receive ${what(watch)}.</p>`);
}
