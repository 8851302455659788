// `npm run key:create -- --email you@example.com [--tier pro]`: an API key without
// the browser sign-in (operators, scripts, tests). Prints the key once.
import { issueApiKey, issueApiKeyInputSchema } from "@/lib/services/issue-api-key";
import { argumentsOrExit, parseArgsOrExit, runAdminJob } from "./lib/run-job";

const { values } = parseArgsOrExit({ options: { email: { type: "string" }, tier: { type: "string" }, help: { type: "boolean", short: "h" } } });
if (values.help || !values.email) {
  // asked for, the usage is the answer (stdout); a missing option is an error (stderr)
  (values.help ? console.log : console.error)("usage: npm run key:create -- --email <address> [--tier registered|pro]");
  process.exit(values.help ? 0 : 2);
}
const input = argumentsOrExit(issueApiKeyInputSchema, { email: values.email, ...(values.tier ? { tier: values.tier } : {}) });

const { account_id, tier, key } = await runAdminJob("key:create", "/api/admin/keys", input, issueApiKey);
console.log(`account ${account_id} (${tier})`);
console.log(`key (shown once, store it now): ${key}`);
if (input.tier && input.tier !== tier) {
  // createAccount returns an existing account as it is: the tier of an account is not changed from here
  console.error(`note: ${input.email} already had an account with tier ${tier}; --tier ${input.tier} applies only to new accounts`);
}
