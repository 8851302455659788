/**
 * Whether the client asked for text/plain rather than JSON: text/plain listed with a higher q than
 * application/json, or the same q and listed first, or JSON not listed. No accept header, or only `*\/*` → JSON.
 */
export function prefersText(req: Request): boolean {
  const accept = req.headers.get("accept");
  if (!accept) return false;
  const text = { q: 0, at: -1 };
  const json = { q: 0, at: -1 };
  accept.split(",").forEach((part, at) => {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    const slot = type.trim() === "text/plain" ? text : type.trim() === "application/json" ? json : null;
    if (slot && q > slot.q) Object.assign(slot, { q, at });
  });
  return text.q > 0 && (text.q > json.q || (text.q === json.q && (json.at < 0 || text.at < json.at)));
}
