import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptionsFor } from "@/lib/auth/auth-options";
import { withCappedAuthBody } from "@/lib/auth/auth-request";
import { errorResponse } from "@/lib/api/respond";
import { clientIp } from "@/lib/api/client-ip";
import { allowanceAddress } from "@/lib/quota/allowance-address";

export const dynamic = "force-dynamic";

// next-auth v4 in the App Router: one handler for its GET and POST endpoints.
async function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  let capped: NextRequest;
  try {
    capped = await withCappedAuthBody(req);
  } catch (err) {
    return errorResponse(err, crypto.randomUUID());
  }
  // sign-in link requests are counted per client, as the anonymous allowances are (lib/auth/sign-in-allowance.ts)
  return NextAuth(authOptionsFor(allowanceAddress(clientIp(req))))(capped, ctx);
}

export { handler as GET, handler as POST };
