import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";

/**
 * Vitest global setup: one in-memory PGlite database, migrated, saved as a data-directory image that every test
 * file's in-memory database starts from (PGLITE_MEMORY_IMAGE, lib/db/client.ts). Creating a PGlite cluster
 * and migrating it took about 4.5 s per test file; loading the image takes about 0.6 s, and the migrator then
 * finds nothing to apply. Made afresh on every run, so it always holds this checkout's migrations.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.PGLITE_MEMORY_IMAGE) return undefined; // the caller brought one
  const handle = await openDatabase("pglite:memory");
  try {
    await migrateDatabase(handle, "pglite:memory");
    const client = (handle.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
    const image = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mcp-preflight-pglite-")), "migrated.tar");
    fs.writeFileSync(file, image);
    process.env.PGLITE_MEMORY_IMAGE = file;
    return () => {
      delete process.env.PGLITE_MEMORY_IMAGE;
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    };
  } finally {
    await handle.close();
  }
}
