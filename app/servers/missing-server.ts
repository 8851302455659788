/**
 * Set by middleware.ts on a request for /servers/<name> whose name the catalog does not hold, before it
 * rewrites the request to a path no route claims: the root not-found page then tells it apart from any other
 * missing page. (A client sending it itself only changes which 404 text it reads.)
 */
export const MISSING_SERVER_HEADER = "x-mcp-preflight-missing-server";

/** A path no route claims: Next.js answers it with the root not-found page, 404, rendered on the server. */
export const UNCLAIMED_PATH = "/_server-not-in-catalog";
