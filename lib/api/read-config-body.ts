import { AUDIT_MAX_BODY_BYTES } from "@/lib/config";
import { ConfigParseError, decodeConfigBytes } from "@/lib/config-audit";
import { ApiError } from "./errors";
import { readBinaryBody } from "./request";

/** A config file sent as the request body: at most 256 KiB (413 above), UTF-8 text (400 otherwise). */
export async function readConfigBody(req: Request): Promise<string> {
  // `curl -F file=@mcp.json` sends a form whose parts would be read as the file (a YAML error at best)
  if (/^multipart\/form-data\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new ApiError("invalid_request", "send the config file itself as the request body (curl --data-binary @file), not as a form upload (-F)");
  }
  let bytes: Buffer;
  try {
    bytes = await readBinaryBody(req, AUDIT_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof ApiError && err.code === "payload_too_large") throw configTooLarge();
    throw err;
  }
  return configText(bytes);
}

/** A config file sent in a form (the audit page without JavaScript), held to the same limits as a request body. */
export function readConfigBytes(bytes: Uint8Array): string {
  if (bytes.length > AUDIT_MAX_BODY_BYTES) throw configTooLarge();
  return configText(bytes);
}

/** The API's 413 for a config over the limit (also the audit page's line for a form post too large to read). */
export function configTooLarge(): ApiError {
  return new ApiError(
    "payload_too_large",
    `the config file is over ${AUDIT_MAX_BODY_BYTES / 1024} KiB; a client's whole settings file (~/.claude.json also keeps project history) can be cut to its server map: send {"mcpServers": {…}} alone`,
  );
}

function configText(bytes: Uint8Array): string {
  try {
    return decodeConfigBytes(bytes);
  } catch (err) {
    if (err instanceof ConfigParseError) throw new ApiError("invalid_request", `the config file cannot be read: ${err.message}`);
    throw err;
  }
}
