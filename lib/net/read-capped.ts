/**
 * Reads a request's or a response's body up to `maxBytes`; past that (declared or streamed) it stops reading,
 * drops the rest and answers null, so no caller or upstream can make the process hold a body of any size.
 */
export async function readCapped(message: Request | Response, maxBytes: number): Promise<Buffer | null> {
  const declared = Number(message.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await message.body?.cancel().catch(() => {});
    return null;
  }
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}
