import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "./helpers/server";

// Ctrl-C on `npm start` (SIGTERM from a process manager) must close the embedded database: a PGlite directory
// left open starts the next time in crash recovery, and an interrupted one has been seen not to open at all.
describe("stopping the server on the embedded database", () => {
  it("closes PGlite on SIGTERM: a clean shutdown in pg_control and the lock released", async () => {
    const server = await startServer({ MAINTENANCE_INTERVAL_MS: "0" });
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    const dir = path.join(server.dataDir, "pglite");
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    await server.stop({ keepDataDir: true });
    try {
      // pg_control's DBState, an int32 at byte 16: 1 = shut down, 6 = in production (exited while open)
      expect(fs.readFileSync(path.join(dir, "global/pg_control")).readInt32LE(16)).toBe(1);
      expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    } finally {
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});
