import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { ApiError } from "@/lib/api/errors";
import { describeZodError } from "@/lib/api/request";
import { internalErrorBody } from "@/lib/api/respond";

/**
 * The text blocks of a result: a line for people, then the structured content as JSON. MCP (2025-06-18 on): a
 * tool that returns structured content SHOULD also return it serialized in a text block; many clients give
 * the model only the text, which would otherwise lack a new watch's secret (shown once) and all but one reason.
 */
function textBlocks(summary: string, data: unknown): CallToolResult["content"] {
  return [
    { type: "text", text: summary },
    { type: "text", text: JSON.stringify(data) },
  ];
}

/** A successful tool result: the same data REST returns as structured content, plus a line for people. */
export function toolData(data: unknown, summary: string): CallToolResult {
  return {
    content: textBlocks(summary, data),
    structuredContent: data as Record<string, unknown>,
  };
}

/**
 * A failure as an MCP tool error carrying the REST Error body, so an agent sees
 * the same `error` identifier (unauthorized, payment_required, rate_limited, not_found…).
 */
export function toolError(err: unknown): CallToolResult {
  if (err instanceof ZodError) err = new ApiError("invalid_request", describeZodError(err));
  // REST's 500 body: an agent (or its user) has a request id to quote, which the log line carries too
  const body = err instanceof ApiError ? err.toBody() : internalErrorBody(err, randomUUID());
  return {
    isError: true,
    content: textBlocks(`${body.error}: ${body.message ?? ""}`.trim(), body),
    structuredContent: body as unknown as Record<string, unknown>,
  };
}
