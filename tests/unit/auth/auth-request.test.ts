import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { AUTH_MAX_BODY_BYTES, withCappedAuthBody } from "@/lib/auth/auth-request";
import { ApiError } from "@/lib/api/errors";

const url = "http://localhost:3000/api/auth/signin/email?x=1";
const form = "email=a%40example.test&csrfToken=abc&callbackUrl=%2Faccount";

describe("withCappedAuthBody (what next-auth is given to read)", () => {
  it("hands on a sign-in form as sent: body, headers, method and URL", async () => {
    const req = new NextRequest(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: "a=b" }, body: form });
    const out = await withCappedAuthBody(req);
    expect(out.method).toBe("POST");
    expect(out.nextUrl.searchParams.get("x")).toBe("1");
    expect(out.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(out.headers.get("cookie")).toBe("a=b");
    expect(Object.fromEntries(new URLSearchParams(await out.text()))).toEqual({ email: "a@example.test", csrfToken: "abc", callbackUrl: "/account" });
  });

  it("refuses a body over the limit with 413, declared or streamed, without reading the rest", async () => {
    const big = "x".repeat(AUTH_MAX_BODY_BYTES + 1);
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulls++;
        c.enqueue(new Uint8Array(16 * 1024));
      },
    });
    for (const body of [big, endless]) {
      const req = new NextRequest(url, { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
      const err = await withCappedAuthBody(req).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: "payload_too_large", status: 413 });
    }
    expect(pulls).toBeLessThan(AUTH_MAX_BODY_BYTES / (16 * 1024) + 4);
  });

  it("leaves a GET alone (next-auth reads no body of one)", async () => {
    const req = new NextRequest(url);
    expect(await withCappedAuthBody(req)).toBe(req);
  });
});
