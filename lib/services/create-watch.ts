import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts, servers, watches, type WatchRow } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import { CREDIT_COSTS, WATCH_LIMITS, type Tier } from "@/lib/config";
import { WATCH_EVENT_KINDS } from "@/lib/harvest/record-changes";
import type { WatchInput, WatchView } from "@/lib/schemas/watch";
import { checkWebhookUrl } from "@/lib/watches/check-webhook-url";
import { newUnsubscribeToken, newWatchId, newWatchSecret } from "@/lib/watches/watch-ids";
import { cancelPendingDeliveries } from "@/lib/watches/finish-delivery";
import { toWatchView } from "@/lib/watches/watch-view";
import { mailWatchConfirmation } from "@/lib/watches/mail-watch-confirmation";
import type { ChargeExtras } from "@/lib/quota";

export const WATCH_SUBSCRIBE_COST = CREDIT_COSTS.watch_subscribe;

export interface WatchCaller {
  tier: Tier;
  accountId: string | null;
  keyId: string | null;
}

export interface WatchServiceContext {
  caller: WatchCaller;
  /** Spends credits for `subject` (route wrapper's charge); `extras.db` charges inside that transaction. */
  charge(subject: string, cost: number, extras?: ChargeExtras): Promise<unknown>;
}

export interface CreateWatchResult {
  ok: true;
  created: boolean;
  watch: WatchView;
  /** Only when the watch was created (DESIGN §3: shown once, again only by rotation). */
  secret?: string;
}

export function requireAccount(caller: WatchCaller): string {
  if (!caller.accountId) throw new ApiError("unauthorized", "watches need an account API key in x-api-key");
  return caller.accountId;
}

/** Active watches an account may have: its tier's, or what an operator granted it (contract Limits: "more by request"). */
export function watchLimit(tier: Tier, granted: number | null = null): number {
  return granted ?? (tier === "pro" ? WATCH_LIMITS.pro : WATCH_LIMITS.registered);
}

/** The account's own limit, read (the watches page; creation reads it under the account's lock). */
export async function accountWatchLimit(db: Db, accountId: string, tier: Tier): Promise<number> {
  const [row] = await db.select({ granted: accounts.watchLimit }).from(accounts).where(eq(accounts.id, accountId));
  return watchLimit(tier, row?.granted ?? null);
}

/** "Same target": the webhook URL and the e-mail address together. */
const targetKeyOf = (webhookUrl: string | null, email: string | null) => `webhook:${webhookUrl ?? ""}\nemail:${email ?? ""}`;

/**
 * POST /v1/watch: creates the caller's watch of one server, or updates it when
 * the account already watches that server with the same target (webhook URL and
 * e-mail). The body is the watch's whole configuration: `events` left out means
 * all five kinds, `label` left out means none. Checked in order: the webhook
 * URL (400, resolved now), the server (404), the tier's limit of active watches
 * (403 watch_limit_reached, creation only), then 10 credits on creation only
 * (402). The creating response carries the secret; no other response does.
 */
export async function createWatch(db: Db, input: WatchInput, ctx: WatchServiceContext): Promise<CreateWatchResult> {
  const accountId = requireAccount(ctx.caller);
  const webhookUrl = input.webhook_url !== undefined ? await checkWebhookUrl(input.webhook_url) : null;
  const email = input.email !== undefined ? input.email.trim().toLowerCase() : null;
  const events = input.events ?? [...WATCH_EVENT_KINDS];
  const label = input.label ?? null;
  const targetKey = targetKeyOf(webhookUrl, email);

  const [server] = await db.select({ id: servers.id, name: servers.name }).from(servers).where(eq(servers.name, input.server_name));
  if (!server) {
    throw new ApiError("not_found", `no server named ${JSON.stringify(input.server_name)} in the catalog (names are exact and case-sensitive)`, {
      reason: { code: "unknown_server", name: input.server_name },
    });
  }

  const outcome = await db.transaction(async (tx): Promise<{ row: WatchRow; created: boolean }> => {
    // One account's creations run one at a time, so the limit and create-or-update hold under concurrency.
    const [owner] = await tx
      .select({ granted: accounts.watchLimit, email: accounts.email })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for("update");
    const limit = watchLimit(ctx.caller.tier, owner?.granted ?? null);
    const [existing] = await tx
      .select()
      .from(watches)
      .where(and(eq(watches.accountId, accountId), eq(watches.serverId, server.id), eq(watches.targetKey, targetKey), eq(watches.status, "active")));
    if (existing) {
      const now = new Date();
      // still active: a DELETE that committed since the select (it does not take the account's lock) leaves no row
      const [row] = await tx
        .update(watches)
        .set({ events, label, updatedAt: now })
        .where(and(eq(watches.id, existing.id), eq(watches.status, "active")))
        .returning();
      // no row: the watch went since the select; this call creates it instead
      if (row) {
        // events of kinds the watch no longer asks for are not sent, queued ones included
        await cancelPendingDeliveries(tx, existing.id, now, undefined, events);
        return { row, created: false };
      }
    }
    const [{ n }] = await tx
      .select({ n: count() })
      .from(watches)
      .where(and(eq(watches.accountId, accountId), eq(watches.status, "active")));
    if (n >= limit) {
      throw new ApiError(
        "watch_limit_reached",
        `this account has ${n} active watches, ${owner?.granted == null ? `the limit of its ${ctx.caller.tier} tier` : "the limit granted to it"} (${limit}); delete one (DELETE /v1/watch?id=…, or the catalog_watch_unsubscribe tool) or ask for more`,
        { reason: { code: "watch_limit", active: n, limit, tier: ctx.caller.tier, granted: owner?.granted != null } },
      );
    }
    const [row] = await tx
      .insert(watches)
      .values({
        id: newWatchId(),
        accountId,
        keyId: ctx.caller.keyId,
        serverId: server.id,
        serverName: server.name,
        webhookUrl,
        email,
        targetKey,
        events,
        label,
        secret: newWatchSecret(),
        unsubscribeToken: newUnsubscribeToken(),
        // the account's own address (confirmed by signing in with it) agrees at once; any other must say so
        ...(email === null
          ? {}
          : email === owner?.email.trim().toLowerCase()
            ? { emailConfirmedAt: new Date() }
            : { emailConfirmToken: newUnsubscribeToken() }),
      })
      .returning();
    // paid for in the same transaction, per server like every charge (the contract's repeat of the same server on
    // the same UTC day is free: a second target, or the watch made again after a delete). A charge refused (402) or
    // lost with its connection leaves no watch: after the commit, a failed charge's clean-up could fail in turn (the
    // database gone) and leave an active watch nobody paid for, whose secret its caller never saw.
    await ctx.charge(`watch_subscribe:${server.name}`, WATCH_SUBSCRIBE_COST, { db: tx });
    return { row, created: true };
  });

  if (!outcome.created) {
    // asking again for a watch whose address has not confirmed sends the link again (within its mail allowance)
    await askToConfirm(outcome.row);
    return { ok: true, created: false, watch: toWatchView(outcome.row) };
  }
  await askToConfirm(outcome.row);
  return { ok: true, created: true, watch: toWatchView(outcome.row), secret: outcome.row.secret };
}

/** Mails the confirmation link of a watch whose address has not agreed yet (after the watch is committed and paid). */
async function askToConfirm(w: WatchRow): Promise<void> {
  if (w.email === null || w.emailConfirmedAt !== null || w.emailConfirmToken === null) return;
  await mailWatchConfirmation({ to: w.email, serverName: w.serverName, label: w.label, token: w.emailConfirmToken });
}
