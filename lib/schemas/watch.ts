import { z } from "zod";
import { WATCH_EVENT_KINDS } from "@/lib/harvest/record-changes";
import { dateTimeSchema } from "./preflight";
import { integerParam, requiredText, serverNameParam } from "./params";

// Zod mirrors of the watch resources (contract: POST/GET/DELETE /v1/watch, DESIGN §3, §8).

export const watchEventKindSchema = z.enum(WATCH_EVENT_KINDS);
export type WatchEventKind = z.infer<typeof watchEventKindSchema>;

export const watchIdSchema = z.string().regex(/^wat_[0-9a-z]{16}$/, "not a watch id (wat_…)");

/** The closed request body of POST /v1/watch. Fields left out take their defaults: every event kind, no label. */
export const watchInputSchema = z
  .strictObject({
    server_name: serverNameParam("server_name"),
    webhook_url: z
      .url({ message: "webhook_url must be an absolute URL" })
      // its own message: without one a too-long URL took the url() message and was called "not absolute"
      .max(2048, "webhook_url must be at most 2048 characters")
      // without a scheme the url() check above has said what is wrong
      .refine((u) => /^https:\/\//i.test(u) || !/^[a-z][a-z0-9+.-]*:/i.test(u), {
        error: (issue) => {
          const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(String(issue.input))?.[1]?.toLowerCase();
          // "https:host/x" parses (WHATWG adds the slashes) but is a typo; "https is refused" would contradict itself
          return scheme === "https" ? "webhook_url must start with https:// and a host name" : `webhook_url must use https (${scheme} is refused)`;
        },
      })
      .optional()
      .describe("https URL that receives each notification as a POST signed with X-Catalog-Signature (sha256=HMAC of the body with the watch secret)"),
    email: z.email().max(254).optional().describe("an e-mail address to notify (one not the account's own is asked to confirm first); give webhook_url, email or both"),
    events: z
      .array(watchEventKindSchema)
      .min(1, "events must name at least one kind (leave it out for all five)")
      .transform((list) => WATCH_EVENT_KINDS.filter((k) => list.includes(k)))
      .optional()
      .describe(`the event kinds to notify of: ${WATCH_EVENT_KINDS.join(", ")}; all ${WATCH_EVENT_KINDS.length} when left out`),
    label: z.string().max(200).optional().describe("a note of your own for this watch, up to 200 characters"),
  })
  .refine((v) => v.webhook_url !== undefined || v.email !== undefined, {
    message: "a watch needs a webhook_url, an email, or both",
  });
export type WatchInput = z.infer<typeof watchInputSchema>;

export const watchSchema = z.strictObject({
  id: watchIdSchema,
  server_name: z.string(),
  webhook_url: z.url().nullable(),
  email: z.email().nullable(),
  /**
   * Whether `email` agreed to this watch's notices (null without an e-mail): the account's own address at once,
   * any other once its owner follows the link mailed to it. Nothing is mailed before.
   */
  email_confirmed: z.boolean().nullable(),
  events: z.array(watchEventKindSchema),
  label: z.string().nullable(),
  status: z.enum(["active", "unsubscribed"]),
  created_at: dateTimeSchema,
  updated_at: dateTimeSchema,
  unsubscribed_at: dateTimeSchema.nullable(),
});
export type WatchView = z.infer<typeof watchSchema>;

export const watchSecretSchema = z.string().regex(/^whsec_[A-Za-z0-9_-]{43}$/);

/** POST /v1/watch: `secret` only in the response that creates the watch. */
export const watchCreateResponseSchema = z.strictObject({
  ok: z.literal(true),
  created: z.boolean(),
  watch: watchSchema,
  secret: watchSecretSchema.optional(),
});

export const watchListResponseSchema = z.strictObject({
  ok: z.literal(true),
  count: z.number().int().min(0),
  watches: z.array(watchSchema),
});

/** A watch id in a query. */
const watchIdParam = requiredText("id").min(1).max(100).describe("the watch id (wat_…)");

export const watchDeleteQuerySchema = z.strictObject({ id: watchIdParam });

export const watchDeleteResponseSchema = z.strictObject({
  ok: z.literal(true),
  watch: watchSchema,
});

export const watchRotateResponseSchema = z.strictObject({
  ok: z.literal(true),
  watch: watchSchema,
  secret: watchSecretSchema,
});

export const deliveryAttemptSchema = z.strictObject({
  attempt: z.number().int().min(1),
  started_at: dateTimeSchema,
  duration_ms: z.number().int().min(0),
  ok: z.boolean(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The start of the receiver's answer (at most 512 bytes; an SMTP reply for e-mail), null when none came. */
  response: z.string().nullable(),
});

export const watchDeliverySchema = z.strictObject({
  event_id: z.string().regex(/^evt_[0-9a-z]{20}$/),
  channel: z.enum(["webhook", "email"]),
  type: watchEventKindSchema,
  status: z.enum(["pending", "delivered", "failed", "cancelled"]),
  attempts: z.number().int().min(0),
  created_at: dateTimeSchema,
  next_attempt_at: dateTimeSchema.nullable(),
  finished_at: dateTimeSchema.nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  attempt_log: z.array(deliveryAttemptSchema),
});

export const watchDeliveriesQuerySchema = z.strictObject({
  id: watchIdParam,
  limit: integerParam("limit", 1, 100).default(20).describe("how many deliveries, newest first, 1 to 100 (default 20)"),
});

export const watchDeliveriesResponseSchema = z.strictObject({
  ok: z.literal(true),
  watch_id: watchIdSchema,
  count: z.number().int().min(0),
  deliveries: z.array(watchDeliverySchema),
});

/** The webhook body (DESIGN §8), for receivers' tests and ours. */
export const watchEventPayloadSchema = z.strictObject({
  id: z.string().regex(/^evt_[0-9a-z]{20}$/),
  type: watchEventKindSchema,
  created_at: dateTimeSchema,
  watch_id: watchIdSchema,
  server_name: z.string(),
  data: z.strictObject({ before: z.json(), after: z.json(), card_url: z.url() }),
});
