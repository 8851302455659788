import { z, type ZodType } from "zod";
import { ApiError } from "./errors";

/** One line naming each failed field, for the Error body's message. */
export function describeZodError(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "body";
      if (i.code === "unrecognized_keys") return `${where}: unknown field(s) ${i.keys.map((k) => `"${k}"`).join(", ")}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

export function parseWith<T>(schema: ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiError("invalid_request", describeZodError(r.error));
  return r.data;
}

/** Reads a JSON body, capped in size, and validates it; every failure is a 400 (413 when too large). */
export async function readJsonBody<T>(req: Request, schema: ZodType<T>, maxBytes = 64 * 1024): Promise<T> {
  const text = await readTextBody(req, maxBytes);
  if (!text.trim()) throw new ApiError("invalid_request", "request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError("invalid_request", `request body is not valid JSON: ${(err as Error).message}`);
  }
  return parseWith(schema, value);
}

/** Reads the body as text, refusing more than maxBytes without buffering the rest. */
export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBinaryBody(req, maxBytes));
}

export async function readBinaryBody(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new ApiError("payload_too_large", `request body is over the ${maxBytes}-byte limit`);
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", `request body is over the ${maxBytes}-byte limit`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

/** Query parameters as a plain object (last value wins), for zod parsing. */
export function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams.entries());
}
