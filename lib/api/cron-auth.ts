import { timingSafeEqual } from "node:crypto";
import { acceptedCronSecret } from "@/lib/boot/local-server-file";
import { ApiError } from "./errors";

/** Cron and job routes take `Authorization: Bearer <CRON_SECRET>` (what Vercel Cron sends). */
export function requireCronSecret(req: Request): void {
  const expected = acceptedCronSecret();
  const given = req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(expected ?? "");
  if (!expected || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ApiError("unauthorized", "this route needs the cron secret in the Authorization header");
  }
}

/**
 * withCaller's options for an operator route (cron jobs, operator scripts): outside the /v1 API, it reads its own
 * query parameters after the secret (a caller without it hears 401 whatever it sent), and Vercel Cron calls
 * the paths vercel.json names as they are.
 */
export const OPERATOR_ROUTE = { query: "unchecked" } as const;
