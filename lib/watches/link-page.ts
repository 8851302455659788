import type { WatchView } from "@/lib/schemas/watch";

// The small pages behind the links in watch e-mails (unsubscribe, confirm). They work without signing in: each
// token can do one thing to its one watch. GET only asks (mail scanners open links); a button POSTs.

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function linkPage(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

/** "notices about <server> to <address> (“label”)", escaped. */
export const noticesOf = (w: WatchView) =>
  `notices about <strong>${escapeHtml(w.server_name)}</strong>${w.email ? ` to ${escapeHtml(w.email)}` : ""}${w.label ? ` (“${escapeHtml(w.label)}”)` : ""}`;

/** A button that POSTs the page's own URL. */
export const postButton = (label: string) =>
  `<form method="post"><button type="submit" style="font-size:1rem;padding:.5rem 1rem">${escapeHtml(label)}</button></form>`;
