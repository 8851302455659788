import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/lib/api/errors";

// The contract's Error body: the body of every error response (lib/api/respond.ts writes it).

export const errorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const errorBodySchema = z.strictObject({
  ok: z.literal(false),
  error: errorCodeSchema,
  message: z.string().optional(),
  /** Seconds until a retry can succeed (429). */
  retry_after: z.number().int().nonnegative().optional(),
  reset_at: z.iso.datetime({ offset: true }).optional(),
});
export type ErrorBodyView = z.infer<typeof errorBodySchema>;
