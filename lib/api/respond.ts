import { ZodError } from "zod";
import { ApiError, type ErrorBody } from "./errors";
import { describeZodError } from "./request";
import { log } from "@/lib/log";
import { jsonBytes } from "./json-bytes";
import { errorForLog } from "@/lib/db/query-error";

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
  return new Response(jsonBytes(body), { ...init, headers });
}

/**
 * The one place where failures become the contract's Error body. Unknown errors
 * are logged with a request id and answered without internals.
 */
export function errorResponse(err: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  if (err instanceof ZodError) err = new ApiError("invalid_request", describeZodError(err));
  if (err instanceof ApiError) {
    const h: Record<string, string> = { ...headers, ...err.extra.headers };
    if (err.extra.retryAfter !== undefined) h["retry-after"] = String(err.extra.retryAfter);
    return json(err.toBody(), { status: err.status, headers: h });
  }
  return json(internalErrorBody(err, requestId), { status: 500, headers: { ...headers, "x-request-id": requestId } });
}

/**
 * An unexpected failure's Error body (REST's 500, an MCP tool's error): nothing of its internals, only the request
 * id that the log line written here carries too, for the caller to quote.
 */
export function internalErrorBody(err: unknown, requestId: string): ErrorBody {
  log.error("unhandled error", { requestId, error: errorForLog(err) });
  return { ok: false, error: "internal_error", message: `internal error; quote request id ${requestId} when reporting it` };
}
