import { ImageResponse } from "@vercel/og";
import { getDb } from "@/lib/db/client";
import { getServerPage } from "@/lib/services/get-server-page";
import { nameFromRequestPath } from "@/lib/cards/links";
import { verifiedWords } from "@/lib/cards/verified-words";
import { ogName, ogText } from "./og-text";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const COLORS: Record<string, string> = { PASS: "#15803d", REVIEW: "#a16207", BLOCK: "#b91c1c" };
const POLICY: Record<string, string> = { "builtin:baseline": "baseline@1", "builtin:first-party": "first-party@1", "builtin:strict": "strict@1" };

/** GET /og/<name>.png: the server page's Open Graph image (1200×630), from the same view as the page. */
export async function GET(req: Request, _ctx: { params: Promise<{ name: string[] }> }): Promise<Response> {
  // from the raw path, decoded once: Next.js hands route handlers their params already decoded. Only the
  // documented path (the one og:image names) is the image: without ".png" the name is "", not in the catalog
  const name = nameFromRequestPath(req.url, "/og/", ".png");
  const view = await getServerPage(await getDb(), name);
  if (!view) return new Response("not in catalog\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300" } });
  const { card, decisions } = view;
  const image = new ImageResponse(
    (
      <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", padding: 64, background: "#ffffff", color: "#111827", fontSize: 32 }}>
        <div style={{ display: "flex", fontSize: 28, color: "#4b5563" }}>mcp-preflight · public-evidence preflight</div>
        {/* a long name wraps anywhere (it has no spaces), at a size where its 60 characters fit in two lines: not run off the image with its "…" */}
        <div style={{ display: "flex", fontSize: name.length > 40 ? 40 : 60, fontWeight: 700, marginTop: 24, wordBreak: "break-all" }}>{ogName(name, 60)}</div>
        <div style={{ display: "flex", fontSize: 30, color: "#4b5563", marginTop: 12 }}>{ogText(card.title ?? card.description ?? "", 80)}</div>
        <div style={{ display: "flex", marginTop: 48, gap: 24 }}>
          {decisions.map((d) => (
            <div key={d.policy.id} style={{ display: "flex", flexDirection: "column", border: "3px solid #d1d5db", borderRadius: 16, padding: "20px 28px", minWidth: 300 }}>
              <div style={{ display: "flex", fontSize: 26, color: "#4b5563" }}>{POLICY[d.policy.id]}</div>
              <div style={{ display: "flex", fontSize: 56, fontWeight: 700, color: COLORS[d.decision] }}>{d.decision}</div>
            </div>
          ))}
        </div>
        <div style={{ display: "flex", marginTop: "auto", fontSize: 30, gap: 48 }}>
          <div style={{ display: "flex" }}>Trust score {card.trust_score}/100</div>
          <div style={{ display: "flex" }}>Health {card.health}</div>
          <div style={{ display: "flex" }}>Verified: {verifiedWords(card)}</div>
        </div>
      </div>
    ),
    { width: 1200, height: 630 },
  );
  image.headers.set("cache-control", "public, max-age=3600, s-maxage=3600");
  return image;
}
