import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z, type ZodType } from "zod";
import { parseWith } from "@/lib/api/request";
import { ApiError } from "@/lib/api/errors";
import {
  admitCaller,
  chargeCaller,
  currentWindows,
  quotaHeaders,
  undoCharges,
  type Caller,
  type CallerInput,
  type ChargeExtras,
  type ChargeReceipt,
  type KeylessAllowance,
  type QuotaState,
} from "@/lib/quota";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RESPONSE_COMPONENTS, ResponseComponent } from "@/lib/openapi/operations";
import { toolData, toolError } from "./tool-result";
import { toolInputZod } from "./input-schemas";
import { declareToolSchemas } from "./advertise-tool-schemas";
import type { ArgumentsAsSent } from "./arguments-as-sent";

export interface ToolContext {
  caller: Caller;
  /** Same contract as the REST wrapper's charge: after validation and existence checks. */
  charge: (subject: string, cost?: number, extras?: ChargeExtras) => Promise<unknown>;
}

export interface ToolOptions {
  keyRequired?: boolean;
  metered?: boolean;
  cost?: number;
  /** As the REST wrapper's option: the keyless allowance the tool charges in, if not the daily lookups. */
  allowance?: KeylessAllowance;
}

/** The caller input the /mcp route attaches to the request (req.auth.extra). */
export interface McpAuthExtra {
  callerInput: CallerInput;
  /**
   * Told the quota headers after each metered tool call, answered or refused, so the HTTP response can carry
   * the headers a REST response would (in a batch, the least any call left: lib/quota/batch-quota-headers.ts).
   */
  quotaSeen?: (headers: Record<string, string>) => void;
  /** The tools/call requests whose arguments name a member twice, by id as JSON, with REST's message (repeated-arguments.ts). */
  repeatedArguments?: ReadonlyMap<string, string>;
}

type Extra = { authInfo?: { extra?: Record<string, unknown> }; requestId?: string | number } & ArgumentsAsSent;

/**
 * The MCP twin of withCaller: the same key resolution, burst limit and charging
 * as REST, then the tool body; every failure becomes a tool error with the REST
 * Error body. Input is validated here with the same zod schema REST uses.
 */
export async function runTool<I>(
  extra: Extra,
  args: unknown,
  schema: ZodType<I> | null,
  options: ToolOptions,
  body: (input: I, ctx: ToolContext) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const auth = extra.authInfo?.extra as McpAuthExtra | undefined;
  const quota: QuotaState = {};
  let caller: Caller | undefined;
  let refusal: unknown;
  // as on REST: what the tool's charges took goes back if the tool then fails (lib/quota/undo-charge.ts)
  const receipts: ChargeReceipt[] = [];
  // as on REST, a key-only tool's call counts in the key's burst window too (lib/api/with-caller.ts)
  const counted = options.metered === true || options.keyRequired === true;
  try {
    const callerInput = auth?.callerInput ?? { apiKey: null, ip: "unknown" };
    // the REST wrapper's admission: key (401; not read by a tool that neither needs nor meters one), then the
    // burst window (429), a keyed caller's both in one statement
    const keyless = !options.metered && !options.keyRequired;
    ({ caller } = await admitCaller(callerInput, { metered: counted, keyRequired: options.keyRequired, keyless, allowance: options.allowance, state: quota }));
    // a message names the tool's arguments as a whole "arguments" (REST's root is the request "body"); they are
    // read as sent, which the SDK's parse is not in every key (arguments-as-sent.ts)
    const sent = "argumentsAsSent" in extra ? extra.argumentsAsSent : args;
    const input = schema ? parseWith(schema, sent ?? {}, "arguments") : (undefined as I);
    // after the schema, as REST's readJsonBody checks a body: the SDK read a member named twice as its last copy
    const repeated = auth?.repeatedArguments?.get(JSON.stringify(extra.requestId));
    if (repeated) throw new ApiError("invalid_request", repeated);
    const charge: ToolContext["charge"] = async (subject, cost = options.cost, extras = {}) => {
      if (!options.metered || cost === undefined) throw new Error(`tool charged without a cost or metering (${subject})`);
      const result = await chargeCaller(caller!, subject, cost, { ...extras, state: quota });
      if (result.receipt) receipts.push(result.receipt);
      return result;
    };
    return await body(input, { caller, charge });
  } catch (err) {
    refusal = err;
    if (caller) await undoCharges(caller, receipts, quota);
    return toolError(err);
  } finally {
    // a caller refused at admission (burst 429) is not returned, but its refusal carries the headers REST sends;
    // a 401 for the key itself has none
    if (counted) {
      const now = new Date();
      if (caller) await currentWindows(caller, quota, now);
      const headers = caller ? quotaHeaders(caller, quota, now) : refusal instanceof ApiError ? refusal.extra.headers : undefined;
      if (headers) auth?.quotaSeen?.(headers);
    }
  }
}

/** What a client may assume about a tool (MCP tool annotations; the spec's defaults are the cautious ones). */
export interface ToolHints {
  /** Changes nothing a caller would call state (credits spent and evaluations recorded do not count). Default true. */
  readOnly?: boolean;
  /** Only for tools that are not read-only: may undo or remove something (an unsubscribe). */
  destructive?: boolean;
  /** The same call twice leaves things as one call did. */
  idempotent?: boolean;
  /** Reaches beyond our catalog (a liveness probe of the server's remote). Default false. */
  openWorld?: boolean;
}

export interface ToolDefinition<I, O extends ResponseComponent> {
  name: string;
  title: string;
  hints?: ToolHints;
  /** When to use it and what the result does and does not mean. */
  description: string;
  /** The same zod schema REST parses with; null for tools without input. */
  schema: ZodType<I> | null;
  options?: ToolOptions;
  /** The REST resource (its /v1/openapi.json component) the tool's structured content is, as its outputSchema says. */
  output: O;
  run: (input: I, ctx: ToolContext) => Promise<{ data: z.output<(typeof RESPONSE_COMPONENTS)[O]>; summary: string }>;
}

/** Registers one tool whose body runs through runTool (quota, errors) and answers data + a summary line. */
export function defineTool<I, O extends ResponseComponent>(server: McpServer, def: ToolDefinition<I, O>): void {
  const schema = toolInputZod(def.schema);
  const handler = async (args: unknown, extra: Extra) =>
    runTool(extra, args, schema as ZodType<I>, def.options ?? {}, async (input, ctx) => {
      const { data, summary } = await def.run(input, ctx);
      return toolData(data, summary);
    });
  const hints = { readOnly: true, openWorld: false, ...def.hints };
  server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: schema as unknown as AnySchema,
      annotations: {
        readOnlyHint: hints.readOnly,
        ...(hints.readOnly ? {} : { destructiveHint: hints.destructive ?? false }),
        ...(hints.idempotent !== undefined ? { idempotentHint: hints.idempotent } : {}),
        openWorldHint: hints.openWorld,
      },
    },
    handler as never,
  );
  declareToolSchemas(server, def.name, def.schema, def.output);
}
