// Next.js calls register() once per server process before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./lib/boot/boot");
  await boot();
}
