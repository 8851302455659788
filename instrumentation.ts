// Next.js calls register() once per server process before it serves requests.
export async function register() {
  // The runtime test wraps the import itself so the edge build drops the branch and everything boot pulls in
  // (database drivers, nodemailer for watch e-mails), which cannot load there.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot, bootFailed } = await import("./lib/boot/boot");
    try {
      await boot();
    } catch (err) {
      bootFailed(err);
    }
  }
}
