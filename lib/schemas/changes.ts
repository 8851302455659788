import { z } from "zod";
import { CHANGE_KINDS } from "@/lib/harvest/record-changes";
import { CHANGE_FEED_DEFAULT_LIMIT, CHANGE_FEED_MAX_LIMIT } from "@/lib/config";
import { dateTimeSchema } from "./preflight";
import { integerParam } from "./params";

// GET /v1/changes (DESIGN §8): query and response.

/** `kind=remote_down,remote_up`: one kind or a comma-separated list; every kind when left out. */
const kindFilterSchema = z
  .string()
  .min(1)
  .max(300)
  .transform((s) => s.split(",").map((k) => k.trim()))
  .pipe(z.array(z.enum(CHANGE_KINDS, { error: `kind must be one or more of ${CHANGE_KINDS.join(", ")}, comma-separated` })).min(1));

export const changeFeedQuerySchema = z
  .strictObject({
    /** Changes after this cursor, oldest first (polling forward). */
    since: z.string().min(1).max(200).optional().describe("an opaque cursor (next_cursor of an earlier page): the changes after it"),
    /** Changes before this cursor: the page just older than it (browsing back from the newest page). */
    before: z.string().min(1).max(200).optional().describe("an opaque cursor (older_cursor of a page read without since): the page older than it"),
    // digits or a JSON integer, as search and recent take it: z.coerce took true, [2], "1e2" and "0x10" too
    limit: integerParam("limit", 1, CHANGE_FEED_MAX_LIMIT)
      .default(CHANGE_FEED_DEFAULT_LIMIT)
      .describe(`how many changes, 1 to ${CHANGE_FEED_MAX_LIMIT} (default ${CHANGE_FEED_DEFAULT_LIMIT})`),
    kind: kindFilterSchema.optional().describe(`one change kind or a comma-separated list: ${CHANGE_KINDS.join(", ")}; every kind when left out`),
    /** One exact server name: that server's changes only. */
    server_name: z.string().min(1).max(300).optional().describe("one exact canonical server name: that server's changes only"),
  })
  .refine((q) => q.since === undefined || q.before === undefined, { message: "since and before cannot be used together", path: ["before"] });
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
  /** Poll `since=next_cursor` for what comes after this page. */
  next_cursor: z.string().min(1),
  /** `since` pages: whether later changes already exist. */
  has_more: z.boolean(),
  /** Pages read without `since` (the newest page, `before` pages): `before=older_cursor` reads the page older than this one; null when none is. */
  older_cursor: z.string().min(1).nullable().optional(),
});
export type ChangeFeedResponse = z.infer<typeof changeFeedResponseSchema>;
