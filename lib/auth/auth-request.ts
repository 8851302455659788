import { NextRequest } from "next/server";
import { readBinaryBody } from "@/lib/api/request";

/**
 * The largest body next-auth is given. Its forms (sign-in: an address, the csrf token, a callback path; sign-out)
 * are well under 1 KB; next-auth itself reads any body whole (`req.json()`, `req.text()`), and one anonymous
 * 400 MB post held about 1.4 GB of the server's memory until it was parsed.
 */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * `req` for next-auth with its body read here, up to AUTH_MAX_BODY_BYTES (past that: ApiError payload_too_large,
 * the rest not read). Only a POST's body is read by next-auth, so only a POST's is read here.
 */
export async function withCappedAuthBody(req: NextRequest): Promise<NextRequest> {
  if (req.method !== "POST" || !req.body) return req;
  const body = await readBinaryBody(req, AUTH_MAX_BODY_BYTES);
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(body) });
}
