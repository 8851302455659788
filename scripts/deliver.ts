// `npm run deliver`            send the webhook and e-mail deliveries that are due, then exit
// `npm run deliver -- --loop`  keep sending (every DELIVER_INTERVAL_MS, default 5 s) until stopped
//
// On the embedded database while the server runs, the work is handed to the
// server's /api/cron/deliver (PGlite must not be opened twice); otherwise it runs here.
import { setTimeout as sleep } from "node:timers/promises";
import { localServer } from "./lib/local-server";
import { parseArgsOrExit, runJob, withOwnDatabase } from "./lib/run-job";
import { deliverIntervalMs } from "@/lib/config";
import { runDeliveries } from "@/lib/watches/run-deliveries";

const { values } = parseArgsOrExit({
  options: {
    loop: { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log("usage: npm run deliver [-- --loop]");
  process.exit(0);
}

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
const interval = Math.max(deliverIntervalMs(), 250);

async function viaServer(): Promise<boolean> {
  const server = localServer();
  if (!server) return false;
  console.log(`the server (pid ${server.pid}) holds the embedded database: asking ${server.url} to deliver`);
  do {
    const res = await server.fetch(`/api/cron/deliver`);
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      console.error(`deliver failed: HTTP ${res.status} ${JSON.stringify(body)}`);
      process.exit(1);
    }
    console.log(JSON.stringify(body));
    if (values.loop) await sleep(interval, undefined, { signal: controller.signal }).catch(() => {});
  } while (values.loop && !controller.signal.aborted);
  return true;
}

async function here() {
  await withOwnDatabase(async (db) => {
    do {
      const r = await runDeliveries(db, { signal: controller.signal, budgetMs: values.loop ? 60_000 : 10 * 60_000 });
      if (r.attempts || !values.loop) console.log(JSON.stringify(r));
      if (values.loop && !r.attempts) await sleep(interval, undefined, { signal: controller.signal }).catch(() => {});
    } while (values.loop && !controller.signal.aborted);
  });
}

await runJob("deliver", viaServer, here);
