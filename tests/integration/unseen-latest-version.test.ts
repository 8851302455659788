import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { GET as serverGet } from "@/app/v1/server/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing, request } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// An unpinned listing runs the registry's latest version. When the registry names a latest version whose record
// it does not hold (npm: `dist-tags.latest` not among `versions`; PyPI: no `info.version`), that version's
// deprecation was never seen: unknown, not "not deprecated" read from a package-level field that has nothing
// to say about it.
const JS = "io.github.one/unseen-latest";
const PY = "io.github.two/no-latest";

describe("an unpinned listing whose registry names a latest version it holds no record of", () => {
  let fake: FakeUpstreams;
  let db: Db;
  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([
      listing({ name: JS, packages: [{ registryType: "npm", identifier: "unseen-mcp", version: "latest", transport: { type: "stdio" } }] }),
      listing({ name: PY, packages: [{ registryType: "pypi", identifier: "nolatest-mcp", version: "auto", transport: { type: "stdio" } }] }),
    ]));
    fake.npm.set({ name: "unseen-mcp", versions: { "1.0.0": null, "2.0.0": null }, latest: "3.0.0" });
    fake.pypi.set({ name: "nolatest-mcp", versions: { "1.0": true }, latest: undefined as unknown as string });
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "pypkg"] });
  });
  afterAll(() => fake?.close());

  it("npm: the deprecation of a dist-tags.latest missing from versions is unknown, on the card and in the preflight reason", async () => {
    expect((await loadFactsMany(db, [JS])).get(JS)!.packages[0]).toMatchObject({ version: "latest", exists: true, deprecated: null });
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(JS)}`))).json();
    expect(card.jspkg_deprecated).toBeNull();
    expect(card.packages[0]).toMatchObject({ exists: true, deprecated: null });
    const result = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: JS } }))).json();
    expect(result.reasons.find((r: { code: string }) => r.code === "jspkg_deprecated")).toMatchObject({ result: "unknown" });
  });

  it("PyPI: an active project without info.version leaves the latest release's yank unknown", async () => {
    expect((await loadFactsMany(db, [PY])).get(PY)!.packages[0]).toMatchObject({ version: "auto", exists: true, deprecated: null });
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(PY)}`))).json();
    expect(card.packages[0]).toMatchObject({ exists: true, deprecated: null });
  });
});
