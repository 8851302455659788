import { AUDIT_MAX_BODY_BYTES } from "@/lib/config";
import { ConfigParseError, decodeConfigBytes } from "@/lib/config-audit";
import { ApiError } from "./errors";
import { readBinaryBody } from "./request";

/** A config file sent as the request body: at most 256 KiB (413 above), UTF-8 text (400 otherwise). */
export async function readConfigBody(req: Request): Promise<string> {
  const bytes = await readBinaryBody(req, AUDIT_MAX_BODY_BYTES);
  try {
    return decodeConfigBytes(bytes);
  } catch (err) {
    if (err instanceof ConfigParseError) throw new ApiError("invalid_request", `the config file cannot be read: ${err.message}`);
    throw err;
  }
}
