/** The `error` identifiers of the contract and DESIGN §7, with their HTTP statuses. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  payment_required: 402,
  watch_limit_reached: 403,
  not_found: 404,
  method_not_allowed: 405,
  refresh_in_progress: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  audit_unavailable: 503,
  /** A method no route answers (TRACE, PROPFIND, …); written by the listener, scripts/unroutable-request.mjs. */
  not_implemented: 501,
  /** Written by the listener for a request Node's parser refuses (scripts/unroutable-request.mjs answerClientError). */
  request_timeout: 408,
  headers_too_large: 431,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  ok: false;
  error: ErrorCode;
  message?: string;
  retry_after?: number;
  reset_at?: string;
}

/**
 * One field's failed check, as zod reports it (zod's issues fit this shape): what the pages read to say it in
 * their own words, naming the form's field. The Error body carries only the message, which is for programs.
 */
export interface FieldIssue {
  code: string;
  /** The field's path in the input (`["events", 1]`); empty for the input as a whole. */
  path: readonly PropertyKey[];
  message: string;
  /** too_big / too_small: the bound, and what was measured (`string`, `array`, …). */
  maximum?: number | bigint;
  minimum?: number | bigint;
  origin?: string;
  /** invalid_format: `email`, `url`, …. */
  format?: string;
}

/**
 * Why a service refused, as data: the pages say it in their own words (app/watches/watch-refusal.ts). Like
 * `issues`, never in the Error body, whose message says the same for programs and stays as the contract has it.
 */
export type RefusalReason =
  | { code: "webhook_not_url" }
  | { code: "webhook_not_https"; scheme: string }
  | { code: "webhook_credentials" }
  | { code: "webhook_blocked_port"; port: string }
  /** `address` absent: a loopback name (localhost); equal to `host`: a literal address; else what `host` resolves to. */
  | { code: "webhook_private_address"; host: string; address?: string }
  | { code: "webhook_not_resolvable"; host: string }
  | { code: "unknown_server"; name: string }
  /** `granted`: the limit is one an operator granted the account, not its tier's. */
  | { code: "watch_limit"; active: number; limit: number; tier: string; granted: boolean }
  | { code: "no_credits"; cost: number };

/** Thrown anywhere below a route or tool; the adapters turn it into the Error body. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { retryAfter?: number; resetAt?: Date; headers?: Record<string, string>; issues?: readonly FieldIssue[]; reason?: RefusalReason } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ok: false, error: this.code, message: this.message };
    if (this.extra.retryAfter !== undefined) body.retry_after = this.extra.retryAfter;
    if (this.extra.resetAt) body.reset_at = this.extra.resetAt.toISOString();
    return body;
  }
}

export const notFound = (what: string) => new ApiError("not_found", what);
export const invalidRequest = (message: string) => new ApiError("invalid_request", message);
