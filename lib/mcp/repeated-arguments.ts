import { clipForMessage } from "@/lib/api/request";
import { duplicateMembers, showPath } from "@/lib/engine/duplicate-member";

/**
 * The tools/call requests of a JSON-RPC body (one message or a batch) whose `arguments` name a member twice, by
 * request id (as JSON), each with the message REST's 400 gives a body that does so (lib/api/request.ts
 * readJsonBody): JSON.parse, and so the SDK, keeps the last copy, and the call was decided on it. The tool refuses
 * the call after its schema (runTool), as REST does, so only that call of a batch is refused. `null` when the body
 * nests too deeply to be checked. Members named twice outside a tool's arguments are the protocol's, not checked.
 */
export function repeatedArguments(text: string, parsed: unknown): Map<string, string> | null {
  const batch = Array.isArray(parsed);
  const messages: unknown[] = batch ? parsed : [parsed];
  const isCall = (m: unknown): m is { id: unknown } => !!m && typeof m === "object" && (m as { method?: unknown }).method === "tools/call" && "id" in m;
  const found = new Map<string, string>();
  // most bodies carry no tool call (initialize, tools/list …): no second reading of the text
  if (!messages.some(isCall)) return found;
  let paths;
  try {
    paths = duplicateMembers(text);
  } catch {
    return null;
  }
  for (const path of paths) {
    const [index, rest] = batch ? [path[0], path.slice(1)] : [0, path];
    const message = typeof index === "number" ? messages[index] : undefined;
    if (!isCall(message) || rest[0] !== "params" || rest[1] !== "arguments") continue;
    const key = JSON.stringify(message.id);
    // the path as REST names one inside its body; "arguments" itself when params names it twice
    const where = rest.length > 2 ? clipForMessage(showPath(rest.slice(2))) : "arguments";
    if (!found.has(key)) found.set(key, `${where}: given more than once; send it once`);
  }
  return found;
}
