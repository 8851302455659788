// `npm run account:watch-limit -- --email you@example.com --limit 80|tier`: the contract's "more by request"
// for watches. An operator gives one account its own limit of active watches, or takes it back to its tier's.
import { grantWatchLimit, grantWatchLimitInputSchema } from "@/lib/services/grant-watch-limit";
import { argumentsOrExit, parseArgsOrExit, runAdminJob } from "./lib/run-job";

const { values } = parseArgsOrExit({ options: { email: { type: "string" }, limit: { type: "string" }, help: { type: "boolean", short: "h" } } });
if (values.help || !values.email || !values.limit) {
  // asked for, the usage is the answer (stdout); a missing option is an error (stderr)
  (values.help ? console.log : console.error)("usage: npm run account:watch-limit -- --email <address> --limit <number>|tier");
  process.exit(values.help ? 0 : 2);
}
const input = argumentsOrExit(grantWatchLimitInputSchema, {
  email: values.email,
  watch_limit: values.limit === "tier" ? null : /^\d+$/.test(values.limit) ? Number(values.limit) : values.limit,
});

const result = await runAdminJob("account:watch-limit", "/api/admin/watch-limit", input, grantWatchLimit);
console.log(`account ${result.account_id} (${result.tier}): ${result.watch_limit} active watches${result.granted ? " (granted)" : " (its tier's limit)"}`);
