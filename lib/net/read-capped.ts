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

/**
 * `res` with a body that fails once `budget.left` bytes have been read through it (shared by every response of
 * one exchange; when spent, `budget.over` is set and `onOver` called): for a reader that takes a response whole
 * and can be given no limit of its own (the MCP SDK client's `response.json()` or event stream).
 */
export function withCappedBody(res: Response, budget: { left: number; over: boolean; onOver?: () => void }): Response {
  if (!res.body) return res;
  const capped = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        budget.left -= chunk.byteLength;
        if (budget.left < 0) {
          budget.over = true;
          budget.onOver?.();
          controller.error(new Error("the answer is larger than this reader takes"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(capped, { status: res.status, statusText: res.statusText, headers: res.headers });
  // an event stream's reader resolves its later requests against the URL a redirect ended at
  Object.defineProperties(out, { url: { value: res.url }, redirected: { value: res.redirected } });
  return out;
}
