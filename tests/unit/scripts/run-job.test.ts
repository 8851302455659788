import { describe, expect, it, vi } from "vitest";
import { DatabaseInUseError } from "@/lib/db/client";
import { runJob } from "../../../scripts/lib/run-job";

// `npm start`, then at once `npm run ingest` (README): the job looked for the server before the server had written
// its file, then found PGlite's lock taken by that server when it opened the database itself, and failed with
// "open in process N; start it or stop it" although the server was there to take the work.
describe("runJob", () => {
  it("hands the work to the server that took the embedded database while the job was opening it", async () => {
    const exit = vi.spyOn(process, "exit").mockImplementation((() => {
      throw new Error("exited");
    }) as never);
    const viaServer = vi.fn().mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    const here = vi.fn().mockRejectedValue(new DatabaseInUseError("/tmp/x/pglite", 4242));
    await runJob("ingest", viaServer, here);
    expect(here).toHaveBeenCalledTimes(1);
    expect(viaServer).toHaveBeenCalledTimes(2);
    expect(exit).not.toHaveBeenCalled();
  });

  it("still fails with one line when no server holds it (another job does)", async () => {
    const exit = vi.spyOn(process, "exit").mockImplementation((() => {
      throw new Error("exited");
    }) as never);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const viaServer = vi.fn().mockResolvedValue(false);
    await expect(runJob("ingest", viaServer, () => Promise.reject(new DatabaseInUseError("/tmp/x/pglite", 4242)))).rejects.toThrow("exited");
    expect(exit).toHaveBeenCalledWith(1);
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/is open in process 4242; start it or stop it/)]);
  });
});
