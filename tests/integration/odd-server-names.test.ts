import { beforeEach, describe, expect, it } from "vitest";
import { GET as badgeGet } from "@/app/badge/[...name]/route";
import type { Db } from "@/lib/db/client";
import { badgePath, serverPagePath } from "@/lib/cards/links";
import { nameFromSegments } from "@/app/servers/[...name]/server-name";
import { getServerPage } from "@/lib/services/get-server-page";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";

// A name holding characters a URL treats specially ("?", "#", "%", "&", "+", non-Latin) must reach its
// page and badge by the links the service itself writes. Next.js hands route handlers their catch-all
// params already decoded (pages get them encoded); the handler is called that way here. The Open Graph
// route reads its name the same way (nameFromRequestPath, tests/unit/cards/links.test.ts); its JSX does not
// run under vitest. (Whitespace is refused at ingest: tests/unit/catalog/registry-entry-name.test.ts.)
const ODD = "io.github.acme/odd+name?q=1#frag%2F&x=y";
const UNICODE = "io.github.acme/ünï-名前";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db, [listing({ name: ODD, title: "Odd" }), listing({ name: UNICODE, title: "Unicode" })]);
});

/** What Next.js passes a route handler for `path`: the segments after the route's prefix, decoded. */
const routeParams = (path: string, prefix: string) => ({
  params: Promise.resolve({ name: new URL(`http://localhost${path}`).pathname.slice(prefix.length).split("/").map(decodeURIComponent) }),
});

describe("server names with URL-special characters", () => {
  it("link to a page path that holds the whole name", async () => {
    for (const name of [ODD, UNICODE]) {
      const url = new URL(`http://localhost${serverPagePath(name)}`);
      expect(url.search + url.hash, name).toBe("");
      // pages get their segments still encoded
      const segments = url.pathname.slice("/servers/".length).split("/");
      expect(nameFromSegments(segments), name).toBe(name);
      expect((await getServerPage(db, nameFromSegments(segments)))?.card.server_name, name).toBe(name);
    }
  });

  it("get their badge, linking to that page", async () => {
    for (const name of [ODD, UNICODE]) {
      const path = badgePath(name);
      const res = await badgeGet(new Request(`http://localhost${path}`), routeParams(path, "/badge/"));
      expect(res.status, name).toBe(200);
      expect(await res.text()).toContain(`href="http://localhost:3000${serverPagePath(name).replace(/&/g, "&amp;")}"`);
    }
  });

  it("a name that only decodes to a listed one when decoded twice is not that server", async () => {
    const twice = `/badge/${badgePath(ODD).slice("/badge/".length).replace(/%/g, "%25")}`;
    expect((await badgeGet(new Request(`http://localhost${twice}`), routeParams(twice, "/badge/"))).status).toBe(404);
  });
});
