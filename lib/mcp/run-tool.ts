import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import { parseWith } from "@/lib/api/request";
import { chargeCaller, checkBurst, requireKey, resolveCaller, type Caller, type CallerInput, type QuotaState } from "@/lib/quota";
import { toolError } from "./tool-result";

export interface ToolContext {
  caller: Caller;
  /** Same contract as the REST wrapper's charge: after validation and existence checks. */
  charge: (subject: string, cost?: number) => Promise<unknown>;
}

export interface ToolOptions {
  keyRequired?: boolean;
  metered?: boolean;
  cost?: number;
}

/** The caller input the /mcp route attaches to the request (req.auth.extra). */
export interface McpAuthExtra {
  callerInput: CallerInput;
}

type Extra = { authInfo?: { extra?: Record<string, unknown> } };

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
  try {
    const callerInput = (extra.authInfo?.extra as McpAuthExtra | undefined)?.callerInput ?? { apiKey: null, ip: "unknown" };
    const { caller, state } = await resolveCaller(callerInput);
    if (options.keyRequired) requireKey(caller);
    const quota: QuotaState = { ...state };
    if (options.metered) await checkBurst(caller, quota);
    const input = schema ? parseWith(schema, args ?? {}) : (undefined as I);
    const charge = async (subject: string, cost = options.cost) => {
      if (!options.metered || cost === undefined) throw new Error(`tool charged without a cost or metering (${subject})`);
      return chargeCaller(caller, subject, cost, { state: quota });
    };
    return await body(input, { caller, charge });
  } catch (err) {
    return toolError(err);
  }
}
