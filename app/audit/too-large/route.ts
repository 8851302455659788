import { AUDIT_REFUSED_PARAM } from "../refused";

/**
 * A form post to /audit too large for a server action, rewritten here by middleware.ts (its body unread): back
 * to the page, which says why. The Location is relative, so the browser stays on the origin it posted from;
 * a redirect made by the middleware itself would name the host as Next.js spells it (127.0.0.1 becomes
 * localhost), another origin, which the pages' CSP `form-action 'self'` forbids a form to be redirected to.
 */
export function POST(): Response {
  return new Response(null, { status: 303, headers: { Location: `/audit?${AUDIT_REFUSED_PARAM}=payload_too_large` } });
}
