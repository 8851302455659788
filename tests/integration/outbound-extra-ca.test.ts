import tls from "node:tls";
import { expect, it, vi } from "vitest";
import { fetchPublic } from "@/lib/net/fetch-public";
import { startHttpsReceiver } from "../helpers/https-receiver";

// The test CA (OUTBOUND_EXTRA_CA_FILE) is trusted on top of the ~140 system roots. Given to every connection as
// `ca`, they were parsed into a new TLS context each time: 0.15 s of CPU on a loaded machine, which used up the
// 200 ms webhook timeout of watch-delivery's never-answering receiver before any request reached it.
it("trusts the test CA without building a TLS context for each connection", async () => {
  const receiver = await startHttpsReceiver((_req, res) => res.writeHead(200, { connection: "close" }).end("ok"));
  let connections = 0;
  receiver.server.on("secureConnection", () => connections++);
  try {
    // the first request makes the dispatcher for this CA file, and with it the one context
    expect((await fetchPublic(receiver.url)).status).toBe(200);
    const contexts = vi.spyOn(tls, "createSecureContext");
    for (let i = 0; i < 2; i++) expect((await fetchPublic(receiver.url, { method: "POST", body: "{}" })).status).toBe(200);
    expect([connections, contexts.mock.calls.length]).toEqual([3, 0]);
    contexts.mockRestore();
  } finally {
    await receiver.close();
  }
});
