/**
 * A small reviewed list of brands whose names MCP servers commonly use, with the
 * namespaces that verify them. The catalog adds every verified DNS namespace as a
 * brand of its own (see brand-claims.ts). Tokens are matched as whole words of a
 * server's name part or title.
 */
export interface Brand {
  brand: string;
  tokens: string[];
  /** Registry namespaces that belong to the brand (DNS reverse domains or io.github.<org>). */
  namespaces: string[];
  /**
   * Derived brands only: GitHub logins owning a repository that a listing of the brand's own (DNS-verified)
   * namespace names. The domain owner pointed at that login's code, and the registry verified io.github.<login>,
   * so that namespace is the brand's author publishing under its GitHub name (com.xcodebuildmcp lists
   * github.com/cameroncooke/XcodeBuildMCP; io.github.cameroncooke/XcodeBuildMCP claims nothing it lacks).
   */
  githubOwners?: string[];
}

export const REVIEWED_BRANDS: Brand[] = [
  { brand: "GitHub", tokens: ["github"], namespaces: ["com.github", "io.github.github"] },
  { brand: "GitLab", tokens: ["gitlab"], namespaces: ["com.gitlab", "io.github.gitlabhq"] },
  { brand: "Stripe", tokens: ["stripe"], namespaces: ["com.stripe", "io.github.stripe"] },
  { brand: "Slack", tokens: ["slack"], namespaces: ["com.slack", "io.github.slackapi"] },
  { brand: "Google", tokens: ["google", "gmail", "gdrive"], namespaces: ["com.google", "io.github.google", "io.github.googleapis"] },
  { brand: "Microsoft", tokens: ["microsoft", "azure", "outlook", "onedrive", "sharepoint"], namespaces: ["com.microsoft", "io.github.microsoft", "io.github.azure"] },
  { brand: "Amazon Web Services", tokens: ["aws"], namespaces: ["com.amazonaws", "com.amazon", "io.github.aws", "io.github.awslabs"] },
  { brand: "Notion", tokens: ["notion"], namespaces: ["com.notion", "so.notion", "io.github.makenotion"] },
  { brand: "Atlassian", tokens: ["atlassian", "jira", "confluence"], namespaces: ["com.atlassian", "io.github.atlassian"] },
  { brand: "Linear", tokens: ["linear"], namespaces: ["app.linear", "io.github.linear"] },
  { brand: "Cloudflare", tokens: ["cloudflare"], namespaces: ["com.cloudflare", "io.github.cloudflare"] },
  { brand: "Vercel", tokens: ["vercel"], namespaces: ["com.vercel", "io.github.vercel"] },
  { brand: "Supabase", tokens: ["supabase"], namespaces: ["com.supabase", "io.github.supabase", "io.github.supabase-community"] },
  { brand: "MongoDB", tokens: ["mongodb"], namespaces: ["com.mongodb", "io.github.mongodb-js"] },
  { brand: "OpenAI", tokens: ["openai"], namespaces: ["com.openai", "io.github.openai"] },
  { brand: "Anthropic", tokens: ["anthropic", "claude"], namespaces: ["com.anthropic", "io.github.anthropics"] },
  { brand: "Figma", tokens: ["figma"], namespaces: ["com.figma", "io.github.figma"] },
  { brand: "Sentry", tokens: ["sentry"], namespaces: ["io.sentry", "io.github.getsentry"] },
  { brand: "PayPal", tokens: ["paypal"], namespaces: ["com.paypal", "io.github.paypal"] },
  { brand: "Shopify", tokens: ["shopify"], namespaces: ["com.shopify", "io.github.shopify"] },
  { brand: "Salesforce", tokens: ["salesforce"], namespaces: ["com.salesforce", "io.github.salesforce", "io.github.forcedotcom"] },
  { brand: "HubSpot", tokens: ["hubspot"], namespaces: ["com.hubspot", "io.github.hubspot"] },
  { brand: "Twilio", tokens: ["twilio"], namespaces: ["com.twilio", "io.github.twilio", "io.github.twilio-labs"] },
  { brand: "Zapier", tokens: ["zapier"], namespaces: ["com.zapier", "io.github.zapier"] },
  { brand: "Asana", tokens: ["asana"], namespaces: ["com.asana", "io.github.asana"] },
  { brand: "Dropbox", tokens: ["dropbox"], namespaces: ["com.dropbox", "io.github.dropbox"] },
  { brand: "Datadog", tokens: ["datadog"], namespaces: ["com.datadoghq", "io.github.datadog"] },
  { brand: "Snowflake", tokens: ["snowflake"], namespaces: ["com.snowflake", "io.github.snowflake-labs"] },
  { brand: "Databricks", tokens: ["databricks"], namespaces: ["com.databricks", "io.github.databricks"] },
  { brand: "Airtable", tokens: ["airtable"], namespaces: ["com.airtable", "io.github.airtable"] },
  { brand: "Zendesk", tokens: ["zendesk"], namespaces: ["com.zendesk", "io.github.zendesk"] },
  { brand: "Discord", tokens: ["discord"], namespaces: ["com.discord", "io.github.discord"] },
  { brand: "Spotify", tokens: ["spotify"], namespaces: ["com.spotify", "io.github.spotify"] },
  { brand: "PostHog", tokens: ["posthog"], namespaces: ["com.posthog", "io.github.posthog"] },
  { brand: "Docker", tokens: ["docker"], namespaces: ["com.docker", "io.github.docker", "io.github.dockersamples"] },
  { brand: "Hugging Face", tokens: ["huggingface"], namespaces: ["co.huggingface", "io.github.huggingface"] },
];

/**
 * Words that are second-level domain labels of real namespaces but also plain
 * words, so a name containing them claims nothing.
 */
export const GENERIC_TOKENS = new Set([
  "mcp", "server", "servers", "api", "app", "apps", "data", "tools", "tool", "cloud", "test", "example", "demo",
  "agent", "agents", "ai", "dev", "docs", "hub", "labs", "io", "net", "web", "search", "code", "open", "free",
  "remote", "local", "smart", "context", "model", "protocol", "github", "gitlab",
  // uno.platform (Uno Platform) is a real namespace; "platform" in a title ("Perplexity API Platform") claims nothing
  "platform",
  // likewise com.files, dev.storage and md.install: a "files-mcp" or a "storage" server names what it does
  "files", "storage", "install",
]);

/**
 * Brand tokens that are also ordinary words ("Linear algebra", "Make HTTP requests", "Close the loop"). Such a
 * token claims its brand only where the text names nothing else: alone or beside generic words (`linear`,
 * `Linear MCP server`, `monday-mcp`), never as one word of a phrase. Reviewed by reading the derived brands of
 * the shared snapshots; a new common-word brand label goes here.
 */
export const COMMON_WORD_TOKENS = new Set([
  "linear", "monday", "make", "close", "continue", "double", "civic", "pearl", "peek", "enigma", "trunk", "singular",
  "neglect", "brick", "kismet", "axiom", "zine", "scorecard", "teamwork", "lingo", "glean", "prisma", "coupler",
  "steeped",
]);
