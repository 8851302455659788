// Next.js calls register() once per server process before it serves requests.
export async function register() {
  // The runtime test wraps the import itself so the edge build drops the branch and everything boot pulls in
  // (database drivers, nodemailer for watch e-mails), which cannot load there.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // before any request: what the memos keep is computed in this context, not in the request that asked first
    (await import("./lib/cache/detached-context")).installDetachedContext();
    const { boot, bootFailed } = await import("./lib/boot/boot");
    const started = boot();
    // scripts/server.mjs stops the process with one line when the start fails, closing the database first (Next.js
    // only logs the failure, then answers every request 500, for good); elsewhere (`next start`, Vercel) bootFailed
    const onBoot = (globalThis as unknown as Record<symbol, ((started: Promise<void>) => void) | undefined>)[Symbol.for("mcp-preflight.boot")];
    if (onBoot) {
      onBoot(started);
      await started.catch(() => undefined);
      return;
    }
    try {
      await started;
    } catch (err) {
      bootFailed(err);
    }
  }
}
