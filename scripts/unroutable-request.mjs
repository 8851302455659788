// Requests Next.js never hands to a route handler, answered by the listener (scripts/server.mjs) so that an API
// path still gets the contract's Error body rather than Next's HTML error page, an empty 400 or a 500:
// - a method route handlers cannot export: TRACE (undici refuses to build its Request: a 500 and an error in
//   the log) and the rest Node parses (PROPFIND, QUERY, …: Next's empty 400). 501, which RFC 9110 §15.6.2 gives
//   a method the server supports for no resource; a 405 would have to name an Allow the listener does not know;
// - an API path that is not valid percent-encoding (Next's HTML 400 page): 400 invalid_request.

const HANDLER_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);
const API_PATH = /^\/v1(?:\/|$)/;

/** Answers a request no route can, and returns true; returns false for every other request, untouched. */
export function answerUnroutable(req, res) {
  const method = req.method ?? "";
  const target = req.url ?? "/";
  const api = API_PATH.test(pathOf(target));
  if (!HANDLER_METHODS.has(method)) {
    const message = `${method} is not supported by this service; OPTIONS on a path lists the methods it answers`;
    if (api) sendError(res, 501, "not_implemented", message);
    else sendText(res, 501, message);
    return true;
  }
  if (api && !decodable(pathOf(target))) {
    sendError(res, 400, "invalid_request", "the request path is not valid percent-encoded UTF-8");
    return true;
  }
  return false;
}

/** The path of a request target, origin-form ("/v1/x?q") or absolute-form ("http://host/v1/x"). */
function pathOf(target) {
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "") || "/" : target;
  return path.replace(/[?#].*$/s, "");
}

function decodable(path) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function sendError(res, status, error, message) {
  send(res, status, "application/json; charset=utf-8", JSON.stringify({ ok: false, error, message }));
}

function sendText(res, status, message) {
  send(res, status, "text/plain; charset=utf-8", `${message}\n`);
}

function send(res, status, contentType, body) {
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(body),
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
  });
  res.end(body);
}
