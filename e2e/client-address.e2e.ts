import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./helpers/server";

// Who a keyless caller is on the production server behind a proxy we run (TRUST_PROXY): Next.js fills in an
// absent x-forwarded-for with the socket's address, which there is the proxy's own.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1" });
});
afterAll(async () => {
  await server?.stop();
});

const dailyLeft = async (q: string, headers: Record<string, string>) => {
  const res = await fetch(`${server.url}/v1/search?q=${q}`, { headers });
  expect(res.status).toBe(200);
  return res.headers.get("x-ratelimit-remaining");
};

describe("the client address behind a proxy (TRUST_PROXY)", () => {
  it("counts each client a proxy names in X-Real-IP only (nginx's usual setting) on its own, not all as the proxy", async () => {
    expect(await dailyLeft("weather", { "x-real-ip": "203.0.113.1" })).toBe("9");
    expect(await dailyLeft("github", { "x-real-ip": "203.0.113.2" })).toBe("9");
    expect(await dailyLeft("slack", { "x-real-ip": "203.0.113.1" })).toBe("8");
  });

  it("believes the last x-forwarded-for address, the one the proxy appended, over X-Real-IP", async () => {
    expect(await dailyLeft("weather", { "x-forwarded-for": "10.9.9.9, 198.51.100.7", "x-real-ip": "10.8.8.8" })).toBe("9");
    expect(await dailyLeft("github", { "x-forwarded-for": "10.9.9.10, 198.51.100.7", "x-real-ip": "10.8.8.9" })).toBe("8");
  });
});
