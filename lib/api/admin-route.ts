import type { ZodType } from "zod";
import type { Db } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { OPERATOR_ROUTE, requireCronSecret } from "./cron-auth";
import { readJsonBody } from "./request";
import { withCaller } from "./with-caller";

/**
 * An operator route: POST a JSON body checked by `schema` with the operator (cron) secret as bearer, answered
 * by `service` uncached. The operator scripts (`npm run key:create`, `account:watch-limit`) send their work
 * here when the running server holds the embedded database.
 */
export function adminPost<I>(schema: ZodType<I>, service: (db: Db, input: I) => Promise<unknown>) {
  return withCaller(async ({ req, headers }) => {
    requireCronSecret(req);
    headers.set("cache-control", "no-store");
    return service(await getDb(), await readJsonBody(req, schema));
  }, OPERATOR_ROUTE);
}
