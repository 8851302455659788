import { z } from "zod";
import { policyIdSchema, dateTimeSchema } from "./preflight";
import { flagParam } from "./params";
import { AUDIT_FILENAME_MAX_CHARS } from "@/lib/config";

// Config audit and resolve (contract: Config audit; DESIGN §9). The request body is the raw config file; the
// query carries the options. Responses are closed: tests check our own output against these.

const flag = flagParam.optional();

/** A file name or path (`.vscode/mcp.json`) that tells the syntax and the client; optional. */
const filenameSchema = z
  .string()
  .min(1)
  .max(AUDIT_FILENAME_MAX_CHARS)
  .optional()
  .describe("the file's name or path (.vscode/mcp.json), which tells its syntax and the client it is for");

export const auditQuerySchema = z.strictObject({
  strict: flag.default(false).describe("true (or 1): REVIEW and UNKNOWN fail too, with exit code 2 (default false)"),
  policy_id: policyIdSchema.default("builtin:baseline").describe("the immutable built-in policy each entry is judged under (default builtin:baseline)"),
  filename: filenameSchema,
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const resolveQuerySchema = z.strictObject({
  filename: filenameSchema,
});
export type ResolveQuery = z.output<typeof resolveQuerySchema>;

export const verdictSchema = z.enum(["PASS", "REVIEW", "BLOCK", "UNKNOWN"]);
export const resolvedBySchema = z.enum(["remote_url", "jspkg", "pypkg", "oci", "name"]);
export const identityKindSchema = z.enum(["remote", "jspkg", "pypkg", "oci", "smithery", "name", "local", "other"]);
export const confidenceSchema = z.enum(["high", "medium", "low"]);
export const configFormatSchema = z.enum(["json", "jsonc", "toml", "yaml"]);

/** How one entry resolved: shared by the resolve and audit entries. */
const resolutionShape = {
  key: z.string(),
  /** The map the entry sits in (`mcpServers`, `servers`, `mcp_servers`, …). */
  map_key: z.string(),
  /** false when the recognised client does not read that map (the entry is still audited). */
  honoured: z.boolean(),
  disabled: z.boolean(),
  /** What the entry runs or connects to, from the file alone. */
  kind: identityKindSchema,
  server_name: z.string().nullable(),
  resolved_by: resolvedBySchema.nullable(),
  /** What the match was made on (URL, package, image, name), or the entry's identity when unresolved. */
  identifier: z.string().nullable(),
  /** The version, tag or spec the launch asks for (`latest`, `1.2.3`), when it names one. */
  version: z.string().nullable(),
  confidence: confidenceSchema.nullable(),
  /** Wrappers peeled to reach the launch, outermost first. */
  wrappers: z.array(z.string()),
  /** Other listed servers that matched as well as server_name. */
  alternatives: z.array(z.string()),
  notes: z.array(z.string()),
};

export const auditReasonSchema = z.strictObject({
  code: z.string().min(1),
  result: z.enum(["pass", "review", "block", "unknown"]),
  summary: z.string().min(1),
});
export type AuditReason = z.infer<typeof auditReasonSchema>;

export const auditEntrySchema = z.strictObject({
  ...resolutionShape,
  verdict: verdictSchema,
  /** Why: the reasons that decided the verdict (never empty). */
  reasons: z.array(auditReasonSchema).min(1),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const fileShape = {
  format: configFormatSchema,
  layout: z.string(),
  map_keys: z.array(z.string()),
};

export const auditCountsSchema = z.strictObject({
  PASS: z.number().int().min(0),
  REVIEW: z.number().int().min(0),
  BLOCK: z.number().int().min(0),
  UNKNOWN: z.number().int().min(0),
  total: z.number().int().min(0),
});

export const auditResultSchema = z.strictObject({
  ok: z.literal(true),
  exit_code: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  strict: z.boolean(),
  ...fileShape,
  policy: z.strictObject({ id: policyIdSchema, revision: z.literal(1) }),
  evaluated_at: dateTimeSchema,
  entries: z.array(auditEntrySchema),
  counts: auditCountsSchema,
});
export type AuditResult = z.infer<typeof auditResultSchema>;

export const resolveEntrySchema = z.strictObject({
  ...resolutionShape,
  /** Why the entry did not resolve (null when it did). */
  unresolved: z.strictObject({ code: z.string().min(1), summary: z.string().min(1) }).nullable(),
});
export type ResolveEntry = z.infer<typeof resolveEntrySchema>;

export const resolveResultSchema = z.strictObject({
  ok: z.literal(true),
  ...fileShape,
  entries: z.array(resolveEntrySchema),
  counts: z.strictObject({ resolved: z.number().int().min(0), unresolved: z.number().int().min(0), total: z.number().int().min(0) }),
});
export type ResolveResult = z.infer<typeof resolveResultSchema>;
