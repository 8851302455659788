// `npm run key:create -- --email you@example.com [--tier pro]`: an API key without
// the browser sign-in (operators, scripts, tests). Prints the key once.
import { parseArgs } from "node:util";
import { issueApiKey, issueApiKeyInputSchema } from "@/lib/services/issue-api-key";
import { postToLocalServer } from "./lib/local-server";
import { runJob, withOwnDatabase } from "./lib/run-job";

const { values } = parseArgs({ options: { email: { type: "string" }, tier: { type: "string" }, help: { type: "boolean", short: "h" } } });
if (values.help || !values.email) {
  console.log("usage: npm run key:create -- --email <address> [--tier registered|pro]");
  process.exit(values.help ? 0 : 2);
}
const parsed = issueApiKeyInputSchema.safeParse({ email: values.email, ...(values.tier ? { tier: values.tier } : {}) });
if (!parsed.success) {
  console.error(`invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  process.exit(2);
}

let result: { key: string; account_id: string; tier: string } | undefined;
await runJob(
  "key:create",
  async () => {
    const answer = await postToLocalServer<NonNullable<typeof result>>("/api/admin/keys", parsed.data);
    if (answer) result = answer;
    return answer !== false;
  },
  async () => {
    result = await withOwnDatabase((db) => issueApiKey(db, parsed.data));
  },
);
const { account_id, tier, key } = result!;
console.log(`account ${account_id} (${tier})`);
console.log(`key (shown once, store it now): ${key}`);
if (parsed.data.tier && parsed.data.tier !== tier) {
  // createAccount returns an existing account as it is: the tier of an account is not changed from here
  console.error(`note: ${parsed.data.email} already had an account with tier ${tier}; --tier ${parsed.data.tier} applies only to new accounts`);
}
