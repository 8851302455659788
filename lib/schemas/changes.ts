import { z } from "zod";
import { CHANGE_KINDS } from "@/lib/harvest/record-changes";
import { CHANGE_FEED_DEFAULT_LIMIT, CHANGE_FEED_MAX_LIMIT } from "@/lib/config";
import { dateTimeSchema } from "./preflight";

// GET /v1/changes (DESIGN §8): query and response.

export const changeFeedQuerySchema = z.strictObject({
  since: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(CHANGE_FEED_MAX_LIMIT).default(CHANGE_FEED_DEFAULT_LIMIT),
});
export type ChangeFeedQuery = z.infer<typeof changeFeedQuerySchema>;

export const changeSchema = z.strictObject({
  id: z.number().int().min(1),
  kind: z.enum(CHANGE_KINDS),
  server_name: z.string(),
  observed_at: dateTimeSchema,
  before: z.json(),
  after: z.json(),
});

export const changeFeedResponseSchema = z.strictObject({
  ok: z.literal(true),
  changes: z.array(changeSchema),
  next_cursor: z.string().min(1),
  has_more: z.boolean(),
});
export type ChangeFeedResponse = z.infer<typeof changeFeedResponseSchema>;
