// Requests Next.js never hands to a route handler, answered by the listener (scripts/server.mjs) so that an API
// path still gets the contract's Error body rather than Next's HTML error page, an empty 400 or a 500:
// - a method route handlers cannot export: TRACE (undici refuses to build its Request: a 500 and an error in
//   the log) and the rest Node parses (PROPFIND, QUERY, …: Next's empty 400). 501, which RFC 9110 §15.6.2 gives
//   a method the server supports for no resource; a 405 would have to name an Allow the listener does not know;
// - an API path that is not valid percent-encoding (Next's HTML 400 page): 400 invalid_request;
// - a request Node's HTTP parser refuses before there is a request at all (answerClientError): headers over
//   Node's 16 KB limit, a method token it does not know (FOO), a malformed request line or header, a request
//   not received within the server's timeout. Node would answer those with an empty 400, 431 or 408.
// And one request it hands on changed: a badge or Open Graph image path that is not valid percent-encoding
// (escapeUndecodableImagePath), so that it gets its image rather than Next's HTML 400 page.
import { STATUS_CODES } from "node:http";

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

// Node's parser error codes (llhttp's HPE_*, and Node's own for a request that took too long) whose answer is
// not the general 400: what RFC 9110 / RFC 6585 give each case.
const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", "the request's headers are over this server's 16 KB limit"],
  HPE_INVALID_METHOD: [501, "not_implemented", "the request method is not one this service supports; OPTIONS on a path lists the methods it answers"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "the request was not received in time; send it again"],
};

/**
 * The server's 'clientError' listener: a request the parser refused gets the contract's Error body (its path may
 * not even be known, so always JSON) and the connection is closed, as Node would close it. A connection reset by
 * the client, or one no longer writable, is only destroyed.
 */
export function answerClientError(err, socket) {
  if (err?.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, error, message] = CLIENT_ERRORS[err?.code] ?? [400, "invalid_request", `the request is not valid HTTP/1.1 (${err?.code ?? "parse error"})`];
  const body = JSON.stringify({ ok: false, error, message });
  const headers = { ...answerHeaders(JSON_TYPE, body), connection: "close" };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}

// A badge or Open Graph image path that is not valid percent-encoding (a hand-written `/badge/acme/100%sure.svg`,
// a mangled copy): Next.js would answer its HTML 400 page, a broken image where the badge promises one that always
// draws (docs/search-and-cards.md, "The badge"). Each path segment that does not decode has its "%" escaped, so
// Next routes the request and the route reads that segment as it is, as decodeSegments (lib/cards/links.ts) reads
// a segment that is not valid percent-encoding: mostly a name not in the catalog, answered with its image.
const IMAGE_PATH = /^\/(?:badge|og)\//;

/** Rewrites `req.url` of an image path that is not valid percent-encoding (see above); any other request is left untouched. */
export function escapeUndecodableImagePath(req) {
  const target = req.url ?? "/";
  const path = pathOf(target);
  if (!IMAGE_PATH.test(path) || decodable(path)) return;
  const origin = originOf(target);
  const escaped = path
    .split("/")
    .map((seg) => (decodable(seg) ? seg : seg.replace(/%/g, "%25")))
    .join("/");
  req.url = origin + escaped + target.slice(origin.length + path.length);
}

/** The scheme and authority of an absolute-form request target ("http://host"), "" for origin-form. */
function originOf(target) {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target)?.[0] ?? "";
}

/** The path of a request target, origin-form ("/v1/x?q") or absolute-form ("http://host/v1/x"). */
function pathOf(target) {
  const origin = originOf(target);
  const path = origin ? target.slice(origin.length) || "/" : target;
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

const JSON_TYPE = "application/json; charset=utf-8";

function sendError(res, status, error, message) {
  send(res, status, JSON_TYPE, JSON.stringify({ ok: false, error, message }));
}

function sendText(res, status, message) {
  send(res, status, "text/plain; charset=utf-8", `${message}\n`);
}

/** The headers of every answer the listener writes itself (through Node's response, or raw on a socket). */
function answerHeaders(contentType, body) {
  return { "content-type": contentType, "content-length": Buffer.byteLength(body), "x-content-type-options": "nosniff", "cache-control": "no-store" };
}

function send(res, status, contentType, body) {
  res.writeHead(status, answerHeaders(contentType, body));
  res.end(body);
}
