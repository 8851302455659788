import { NextResponse, type NextRequest } from "next/server";
import { allowedMethods } from "@/lib/api/route-methods";

// A known /v1 path called with a method it does not answer gets the contract's Error body with 405 and an
// Allow header, instead of Next's empty 405.
export function middleware(req: NextRequest) {
  const allowed = allowedMethods(req.nextUrl.pathname);
  if (!allowed || allowed.includes(req.method)) return NextResponse.next();
  return NextResponse.json(
    { ok: false, error: "method_not_allowed", message: `${req.method} is not supported on ${req.nextUrl.pathname}; use ${allowed.filter((m) => m !== "OPTIONS" && m !== "HEAD").join(" or ")}` },
    { status: 405, headers: { allow: allowed.join(", ") } },
  );
}

export const config = { matcher: "/v1/:path*" };
