import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches, type WatchRow } from "@/lib/db/schema";
import {
  DELIVERY_CLAIM_BATCH,
  DELIVERY_CLAIM_PER_LANE,
  DELIVERY_CONCURRENCY,
  deliveryLeaseMs,
  minDeliveryLeaseMs,
  webhookTimeoutMs,
} from "@/lib/config";
import { log } from "@/lib/log";
import { errorMessage } from "@/lib/db/query-error";
import { claimDeliveries, releaseDeliveries, heldSecret, type ClaimedDelivery, type ClaimedLane } from "./claim-deliveries";
import { cancelPendingDeliveries, finishAttempt } from "./finish-delivery";
import { sendWatchEmail } from "./send-watch-email";
import { sendWebhook, type AttemptOutcome } from "./send-webhook";
import type { WatchEventPayload } from "./event-payload";

export interface RunDeliveriesOptions {
  /** The clock of schedules, leases and attempt times (tests move it by hours). */
  now?: () => Date;
  /** Stop claiming after this much real time (lanes already claimed finish). */
  budgetMs?: number;
  /**
   * The run's hard end in real time (a route's maxDuration): a send that could outlast it is not started, its lane
   * is handed back unsent and nothing more is claimed. Without it, lanes claimed just before the budget ran out
   * kept sending for up to a lease (60 s), and a platform that ends the function at its maxDuration cut sends off
   * unrecorded (sent again when their lease expired).
   */
  deadlineMs?: number;
  /** Stop claiming, and stop each lane after its current send. */
  signal?: AbortSignal;
  concurrency?: number;
  batch?: number;
  perLane?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** Called after each attempt (bench: change-to-delivery lag). */
  onAttempt?: (row: ClaimedDelivery, outcome: AttemptOutcome) => void;
}

export interface RunDeliveriesResult {
  claims: number;
  attempts: number;
  delivered: number;
  retrying: number;
  failed: number;
  cancelled: number;
  /** Claimed but handed back unsent (budget, lease time or stop signal ran out, or an earlier event failed). */
  released: number;
  elapsedMs: number;
}

// no secret: it is read again right before each send (heldSecret), so a rotation applies at once
type WatchTarget = Pick<WatchRow, "id" | "status" | "webhookUrl" | "email" | "label" | "serverName" | "unsubscribeToken">;

/**
 * The delivery worker: claims due outbox rows (claimDeliveries), sends each
 * claimed queue in order, one at a time, `concurrency` queues at once, and
 * claims again whenever a queue finishes, until nothing is due or the budget
 * is spent. A failed send ends its queue's run: the event is retried on the
 * schedule and the events behind it wait (per-watch order).
 *
 * Crash safety: a row is finished only after its send, so a worker killed
 * mid-run leaves its rows leased; they come back when the lease expires and
 * are sent again with the same X-Catalog-Delivery id (at least once on the
 * wire, exactly once for a receiver that dedupes by that id).
 */
export async function runDeliveries(db: Db, opts: RunDeliveriesOptions = {}): Promise<RunDeliveriesResult> {
  const now = opts.now ?? (() => new Date());
  const startedReal = performance.now();
  const budgetMs = opts.budgetMs ?? 50_000;
  const deadlineMs = opts.deadlineMs ?? Infinity;
  const leaseMs = opts.leaseMs ?? deliveryLeaseMs();
  const timeoutMs = opts.timeoutMs ?? webhookTimeoutMs();
  const concurrency = Math.max(1, opts.concurrency ?? DELIVERY_CONCURRENCY);
  if (leaseMs < minDeliveryLeaseMs(timeoutMs)) {
    throw new Error(`the delivery lease (${leaseMs} ms) must outlast an e-mail send (3 × ${timeoutMs} ms) by 2 s`);
  }
  const result: RunDeliveriesResult = { claims: 0, attempts: 0, delivered: 0, retrying: 0, failed: 0, cancelled: 0, released: 0, elapsedMs: 0 };
  const stopped = () => opts.signal?.aborted === true;
  // set when a lane was handed back for the deadline: claiming again would only claim and hand back again
  let outOfTime = false;
  const budgetLeft = () => performance.now() - startedReal < budgetMs;

  async function loadTargets(lanes: ClaimedLane[]): Promise<Map<string, WatchTarget>> {
    const ids = [...new Set(lanes.map((l) => l.watchId))];
    const rows = await db
      .select({
        id: watches.id,
        status: watches.status,
        webhookUrl: watches.webhookUrl,
        email: watches.email,
        label: watches.label,
        serverName: watches.serverName,
        unsubscribeToken: watches.unsubscribeToken,
      })
      .from(watches)
      .where(inArray(watches.id, ids));
    return new Map(rows.map((w) => [w.id, w]));
  }

  /** Never throws: whatever goes wrong in a send is that attempt's failure, retried on the schedule. */
  async function send(row: ClaimedDelivery, watch: WatchTarget, secret: string): Promise<AttemptOutcome> {
    try {
      return await sendOnce(row, watch, secret);
    } catch (err) {
      return { ok: false, statusCode: null, error: `internal error: ${errorMessage(err)}`, response: null, durationMs: 0 };
    }
  }

  async function sendOnce(row: ClaimedDelivery, watch: WatchTarget, secret: string): Promise<AttemptOutcome> {
    if (row.channel === "webhook") {
      return sendWebhook(
        { url: watch.webhookUrl!, body: row.body, secret, eventId: row.eventId, kind: row.kind, watchId: watch.id },
        timeoutMs,
      );
    }
    return sendWatchEmail(
      {
        to: watch.email!,
        serverName: watch.serverName,
        label: watch.label,
        unsubscribeToken: watch.unsubscribeToken,
        payload: JSON.parse(row.body) as WatchEventPayload,
      },
      // SMTP servers may greet slowly; give them three webhook timeouts
      timeoutMs * 3,
    );
  }

  async function runLane(lane: ClaimedLane, watch: WatchTarget | undefined, claimedAtReal: number): Promise<void> {
    const target = lane.channel === "webhook" ? watch?.webhookUrl : watch?.email;
    if (!watch || watch.status !== "active" || !target) {
      result.cancelled += await cancelPendingDeliveries(db, lane.watchId, now(), watch && watch.status === "active" ? lane.channel : undefined);
      return;
    }
    for (let i = 0; i < lane.rows.length; i++) {
      const row = lane.rows[i];
      const elapsed = performance.now() - claimedAtReal;
      const sendMs = timeoutMs * (lane.channel === "email" ? 3 : 1) + 1_000;
      const pastDeadline = performance.now() - startedReal + sendMs > deadlineMs;
      if (pastDeadline) outOfTime = true;
      // Hand the rest back rather than send on a lease that could expire mid-send, or past the run's deadline.
      if (stopped() || pastDeadline || elapsed + sendMs > leaseMs) {
        const rest = lane.rows.slice(i).map((r) => r.id);
        await releaseDeliveries(db, lane.token, rest);
        result.released += rest.length;
        return;
      }
      // cancelled since the claim (the watch deleted, or `events` narrowed): not sent; whatever of the rest is
      // still pending goes back to the queue at once rather than waiting out the lease
      const secret = await heldSecret(db, row.id, lane.token);
      if (secret === null) {
        const rest = lane.rows.slice(i + 1).map((r) => r.id);
        await releaseDeliveries(db, lane.token, rest);
        result.released += rest.length;
        return;
      }
      const startedAt = now();
      const outcome = await send(row, watch, secret);
      result.attempts++;
      opts.onAttempt?.(row, outcome);
      const finished = await finishAttempt(db, row, lane.token, outcome, startedAt);
      if (!finished.held) {
        // cancelled while it was being sent (the watch deleted, or its kind dropped), or the lease ran out and
        // another worker took the queue: give back what this claim still holds (nothing in the second case, the
        // release is by this lease's token), so the rest goes out now rather than when the lease expires
        const rest = lane.rows.slice(i + 1).map((r) => r.id);
        await releaseDeliveries(db, lane.token, rest);
        result.released += rest.length;
        return;
      }
      result[finished.as]++;
      if (!outcome.ok) {
        const rest = lane.rows.slice(i + 1).map((r) => r.id);
        await releaseDeliveries(db, lane.token, rest);
        result.released += rest.length;
        return;
      }
    }
  }

  const active = new Set<Promise<void>>();
  const queue: { lane: ClaimedLane; watch: WatchTarget | undefined; claimedAtReal: number }[] = [];
  let nothingDue = false;
  for (;;) {
    while (active.size < concurrency && queue.length) {
      const { lane, watch, claimedAtReal } = queue.shift()!;
      const p: Promise<void> = runLane(lane, watch, claimedAtReal)
        // A lane that failed keeps its lease: its current event may have been sent (the attempt's record is what
        // failed), and handed back at once it was claimed and sent again by this same run, as fast as the receiver
        // answered. Its events go out again (at least once, in order) when the lease runs out.
        .catch((err) => log.error("delivery lane failed; its events wait for their lease to run out", { watch: lane.watchId, error: errorMessage(err) }))
        .finally(() => active.delete(p));
      active.add(p);
    }
    if (active.size < concurrency && !queue.length && !nothingDue && !outOfTime && !stopped() && budgetLeft()) {
      const claimedAtReal = performance.now();
      const lanes = await claimDeliveries(db, {
        now: now(),
        leaseMs,
        batch: opts.batch ?? DELIVERY_CLAIM_BATCH,
        perLane: opts.perLane ?? DELIVERY_CLAIM_PER_LANE,
      });
      result.claims++;
      if (lanes.length) {
        const targets = await loadTargets(lanes);
        for (const lane of lanes) queue.push({ lane, watch: targets.get(lane.watchId), claimedAtReal });
        continue;
      }
      nothingDue = true;
    }
    if (!active.size) break;
    await Promise.race(active);
    // a finished queue may have unblocked its next events
    nothingDue = false;
  }
  result.elapsedMs = Math.round(performance.now() - startedReal);
  return result;
}
